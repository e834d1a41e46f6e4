/**
 * A break in the entry's evaluation (./next-task.ts): renderer/main.tsx imports this module last; on a page the
 * server drew, its own code (reading the embedded screen, priming the store, starting the draw) runs in a task
 * of its own.
 */
import { entryBreak } from './next-task';

await entryBreak();
