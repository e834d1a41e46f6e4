/**
 * A break in the entry's evaluation (./next-task.ts): renderer/main.tsx imports this module right after MUI's
 * styles and the theme, emotion's caches, i18next with its built-in texts and the app's state; on a page the
 * server drew, what it imports next is evaluated in a later task.
 */
import { entryBreak } from './next-task';

await entryBreak();
