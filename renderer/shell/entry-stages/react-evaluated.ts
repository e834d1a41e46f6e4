/**
 * A break in the entry's evaluation (./next-task.ts): renderer/main.tsx imports this module right after React and
 * react-dom, so what it imports next is evaluated in a later task.
 */
import { nextTask } from './next-task';

await nextTask();
