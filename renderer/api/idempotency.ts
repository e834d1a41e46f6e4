/**
 * Keys of requests the server answers once per key: small, so the engine's dispatcher (its submits) and the
 * upload manager (`uploads.ts`, a chunk of its own loaded by `engine/lazy-uploads.ts`) share them without the
 * start-up chunk carrying uploads.
 */

/** The header of a request the server answers once per key (issue 14 item 5). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** A version-4 uuid; falls back to getRandomValues where randomUUID is missing (plain http on a LAN). */
export function uuidV4(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
