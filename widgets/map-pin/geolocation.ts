import type { LatLng } from './coordinates';

/** How long the browser may take to answer, in ms. */
export const LOCATE_TIMEOUT_MS = 10000;

/** A position read earlier, as kept in localStorage: degrees and when it was read (ms since the epoch). */
export interface StoredPosition {
  lat: number;
  lng: number;
  read_at: number;
}

/** What asking for the current position gave. */
export type LocateOutcome =
  { kind: 'position'; position: LatLng; reused: boolean } | { kind: 'denied' } | { kind: 'unavailable' };

function isStoredPosition(value: unknown): value is StoredPosition {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.lat === 'number' &&
    typeof v.lng === 'number' &&
    typeof v.read_at === 'number' &&
    Math.abs(v.lat) <= 90 &&
    Math.abs(v.lng) <= 180
  );
}

/**
 * The position stored under `key` when it was read less than `throttleMs` ago (SPEC §9 location throttle),
 * else null. Unreadable storage or a malformed entry count as none.
 */
export function freshStoredPosition(key: string, throttleMs: number, now: number): LatLng | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(key);
  } catch {
    return null;
  }
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isStoredPosition(parsed)) return null;
  const age = now - parsed.read_at;
  return age >= 0 && age < throttleMs ? { lat: parsed.lat, lng: parsed.lng } : null;
}

/** Keeps a position read at `readAt` (ms since the epoch) under `key`; storage failures are ignored. */
export function storePosition(key: string, position: LatLng, readAt: number): void {
  const entry: StoredPosition = { lat: position.lat, lng: position.lng, read_at: readAt };
  try {
    localStorage.setItem(key, JSON.stringify(entry));
  } catch {
    // Private browsing or a full quota: the next tap asks the browser again, nothing worse.
  }
}

/**
 * The device's current position (SPEC §2 'allow access', §9 throttle): a position stored under `storageKey`
 * less than `throttleMs` ago is reused without asking the browser; otherwise
 * `navigator.geolocation.getCurrentPosition` is asked (high accuracy, timeout {@link LOCATE_TIMEOUT_MS},
 * maximumAge = throttleMs) and its answer stored with its timestamp. Resolves `denied` when the user refused
 * access (PERMISSION_DENIED), `unavailable` for any other failure or when the browser has no geolocation.
 * Never rejects.
 */
export function currentPosition(options: {
  storageKey: string;
  throttleMs: number;
  now?: () => number;
}): Promise<LocateOutcome> {
  const now = options.now ?? Date.now;
  const stored = freshStoredPosition(options.storageKey, options.throttleMs, now());
  if (stored) return Promise.resolve({ kind: 'position', position: stored, reused: true });
  const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
  if (!geolocation || typeof geolocation.getCurrentPosition !== 'function') {
    return Promise.resolve({ kind: 'unavailable' });
  }
  return new Promise((resolve) => {
    try {
      geolocation.getCurrentPosition(
        (answer) => {
          const position = { lat: answer.coords.latitude, lng: answer.coords.longitude };
          const readAt = Number.isFinite(answer.timestamp) && answer.timestamp > 0 ? answer.timestamp : now();
          storePosition(options.storageKey, position, readAt);
          resolve({ kind: 'position', position, reused: false });
        },
        (error) => resolve({ kind: error.code === 1 ? 'denied' : 'unavailable' }),
        { enableHighAccuracy: true, timeout: LOCATE_TIMEOUT_MS, maximumAge: options.throttleMs },
      );
    } catch {
      resolve({ kind: 'unavailable' });
    }
  });
}
