/** The service worker (renderer/public/sw.js), served from the app's origin under the base path. */
export const SERVICE_WORKER_URL = '/propertyOnboard/sw.js';
/** Its scope: the app's pages, so a reminder's tap can open the checklist in an app window. */
export const SERVICE_WORKER_SCOPE = '/propertyOnboard/';
/** SPEC §9: 'Web push starts after a 1 s delay' — the worker is registered this long after start (ms). */
export const SERVICE_WORKER_DELAY_MS = 1000;

/**
 * Registers the service worker that shows reminders (web push) and opens the checklist on a tap. Idempotent
 * (the browser keeps one registration per scope); resolves null where service workers are not supported
 * or registration fails (e.g. not a secure context), so nothing else waits on it.
 */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker
    .register(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE })
    .catch(() => null);
}

/**
 * SPEC §9 'web push starts after a 1 s delay': registers the service worker {@link SERVICE_WORKER_DELAY_MS}
 * after the app starts, so the first screen is not slowed (renderer/main.tsx does the same, loading this
 * module only then). It never asks for permission to show notifications: that happens only on the owner's
 * tap ('Remind me to finish', the reminder_button widget).
 */
export function registerServiceWorkerLater(delayMs = SERVICE_WORKER_DELAY_MS): void {
  setTimeout(() => void registerServiceWorker(), delayMs);
}
