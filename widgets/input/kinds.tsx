/**
 * The input kinds only signed-in screens draw (a chunk of its own, ./lazy-kinds.tsx): multiline text, whole
 * numbers, and text with a KYC `identifier` (with its checks' helpers, schemas/identifiers).
 */
export { IdentifierField } from './identifier-field';
export { MultilineField } from './multiline-field';
export { NumberField } from './number-field';
