/** The events that tell an owner is about to act: a touch, a pointer press, a key. */
const FIRST_INPUT_EVENTS = ['pointerdown', 'touchstart', 'keydown'] as const;

/**
 * Runs `task` once, at the first touch, pointer press or key in `target` (the window): where the page fetches
 * the code that only acts need (engine/interaction.ts, the buttons' touch ripple), so that neither the first
 * paint nor the idle time after it carry it (issue 13 item 2), and a page only looked at never fetches it. A
 * screen-reader activation without those events fetches the code on the act itself.
 */
export function onFirstInput(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
  task: () => void,
): void {
  const start = () => {
    for (const type of FIRST_INPUT_EVENTS) target.removeEventListener(type, start, true);
    task();
  };
  for (const type of FIRST_INPUT_EVENTS)
    target.addEventListener(type, start, { capture: true, passive: true });
}
