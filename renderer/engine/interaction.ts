import { lazyModule, pagePreloads } from '../../widgets/retry-import';

/** The module {@link loadInteractionCode} loads: the dispatcher and the field checks. */
export type InteractionCode = typeof import('./interaction-code');

const interactionCode = lazyModule<InteractionCode>(() => import('./interaction-code'));

/**
 * The engine's code that only an owner's act needs (the action dispatcher, the field checks of SPEC §5): a
 * chunk of its own, so that the first page does not carry it (issue 13 item 2). Fetched once, when first
 * asked for; the page asks for it at the owner's first touch, click or key (shell/first-input.ts), so it is
 * usually there before the act it serves. Resolves with the module; rejects with the last error when the
 * first fetch and its 5 retries failed (SPEC §4; widgets/retry-import.ts), and is not tried again.
 */
export function loadInteractionCode(): Promise<InteractionCode> {
  return interactionCode.load(pageFetch());
}

/**
 * The page's own fetch of the code: the server names it for preloading in a page whose screen saves drafts
 * (bff/plugins/external/static.ts, `data-shell-part="interaction"`); it counts as the first try (SPEC §4).
 */
function pageFetch() {
  return pagePreloads('shell-part', 'interaction');
}

/**
 * Starts {@link loadInteractionCode}; resolves once the code is there or its first try failed (the retries go
 * on), never rejects: what a screen that saves drafts waits for before it is drawn, as for a lazy widget's code.
 */
export function interactionCodeFirstTry(): Promise<void> {
  return interactionCode.firstTry(pageFetch());
}

/** The module once it has arrived, else null. */
export function loadedInteractionCode(): InteractionCode | null {
  return interactionCode.loaded();
}
