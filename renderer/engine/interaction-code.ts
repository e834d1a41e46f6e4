/**
 * The engine's code that runs only once the owner acts (engine/interaction.ts): the action dispatcher, the
 * field checks and the draft saver, with what they import (the field rules, the KYC identifier checks, the
 * idempotency keys). One chunk, loaded after the first paint, or before a screen that saves drafts is drawn.
 */
export { dispatch } from './dispatcher';
export { validateFieldWhenReady } from './form-checks';
export { createDraftSaver } from './draft-saver';
