/**
 * The entry's evaluation in stages (renderer/main.tsx, issue 13 item 4).
 *
 * The page's code is one chunk, and a chunk's modules are evaluated in one task: ≈30–50 ms on this machine
 * with nothing slowed, ≈120–200 ms at Lighthouse's 4× CPU, after the first paint of a page the server drew,
 * where all of it but 50 ms counts in Total Blocking Time. main.tsx imports, between its other imports, the
 * modules of this folder, each of which awaits {@link nextTask} at its top level: the bundler keeps the chunk's
 * modules in their import order and puts each `await` in place, so the modules after it are evaluated in a
 * later task, and the browser can paint, take a tap or run other work in between. Unbundled (`npm run dev`,
 * tests), a module that awaits holds back only the modules that import it, so main.tsx's own code still runs
 * last. Only a page the server drew is evaluated in stages ({@link entryBreak}).
 */
import { SERVER_DRAWN_ATTRIBUTE } from '../../../schemas/app/first-screen';

/** What {@link nextTask} uses of the global scope: the Prioritized Task Scheduling API where there is one. */
interface TaskScope {
  scheduler?: { yield?: () => Promise<void> };
  MessageChannel?: typeof MessageChannel;
}

/**
 * Resolves in a later task of the event loop: `scheduler.yield()` where the browser has it (Chromium 129+, which
 * runs the continuation ahead of other tasks of its priority), else a message through a `MessageChannel` (a task
 * without setTimeout's 4 ms clamp), else a timer. Never rejects.
 */
export function nextTask(scope: TaskScope = globalThis as TaskScope): Promise<void> {
  const scheduler = scope.scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield.call(scheduler);
  const Channel = scope.MessageChannel;
  if (typeof Channel !== 'function') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new Channel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * What a break of the entry's evaluation awaits: {@link nextTask} on a page the server drew (its root element
 * carries `data-server-drawn`: the screen is shown, and the browser can take a tap or paint between the
 * stages), else nothing, so that the evaluation goes on in the same task: a page the browser draws shows nothing
 * until its first draw, which a break would only delay.
 */
export function entryBreak(
  doc: Pick<Document, 'getElementById'> = document,
  scope?: Parameters<typeof nextTask>[0],
): Promise<void> | undefined {
  return doc.getElementById('root')?.hasAttribute(SERVER_DRAWN_ATTRIBUTE) ? nextTask(scope) : undefined;
}
