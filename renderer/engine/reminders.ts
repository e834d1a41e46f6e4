import type { PushConfig } from '../../schemas/generated/types';
import { apiRequest } from '../api/client';
import { registerServiceWorker } from './service-worker';
import type { DispatchContext } from './dispatcher';

/** The BFF's routes (bff/routes/push). */
export const PUSH_CONFIG_PATH = '/hms_ms/api/v1/push/config';
export const PUSH_SUBSCRIPTION_PATH = '/hms_ms/api/v1/push/subscription';

/**
 * The outcome of turning reminders on: `on` (subscribed and saved), `refused` (the browser's permission is
 * denied, now or before), `not_supported` (no service worker, Push API or notifications in this browser),
 * `unavailable` (the server has no VAPID keys).
 */
export type ReminderState = 'on' | 'refused' | 'not_supported' | 'unavailable';

/** `applicationServerKey` from the VAPID public key (base64url of the uncompressed P-256 point). */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Turns reminders on for this browser (issue 15 item 5). Must run from the owner's tap: the permission
 * prompt is asked for first, while the tap's user activation holds (SPEC §9: never on load). `onAsking` is
 * called when the browser is about to show its prompt. Then the VAPID key is read from the BFF, the worker's
 * push subscription made (or the existing one reused) and saved for the signed-in owner. Rejects with the
 * API's error when the save fails.
 */
export async function turnOnReminders(onAsking: () => void): Promise<ReminderState> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return 'not_supported';
  }
  if (Notification.permission === 'denied') return 'refused';
  if (Notification.permission === 'default') {
    onAsking();
    if ((await Notification.requestPermission()) !== 'granted') return 'refused';
  }
  const config = await apiRequest<PushConfig>(PUSH_CONFIG_PATH);
  if (!config.enabled || !config.vapid_public_key) return 'unavailable';
  const registration = (await registerServiceWorker()) ?? null;
  if (!registration) return 'not_supported';
  const ready = await navigator.serviceWorker.ready;
  const subscription =
    (await ready.pushManager.getSubscription()) ??
    (await ready.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(config.vapid_public_key),
    }));
  const { endpoint, keys } = subscription.toJSON();
  await apiRequest(PUSH_SUBSCRIPTION_PATH, { method: 'PUT', body: { endpoint, keys } });
  return 'on';
}

/**
 * The `enable_reminders` action: {@link turnOnReminders}, each outcome told in a toast in the owner's
 * language (`shell.reminders.*`): asking (generic, while the browser's prompt is up), on (success), refused,
 * not supported, unavailable (warnings). Resolves true only when reminders are on.
 */
export async function enableReminders(ctx: DispatchContext): Promise<boolean> {
  const state = await turnOnReminders(() =>
    ctx.host.toast({ text: ctx.t('shell.reminders.asking'), status: 'generic' }),
  );
  ctx.host.toast({ text: ctx.t(`shell.reminders.${state}`), status: state === 'on' ? 'success' : 'warning' });
  return state === 'on';
}
