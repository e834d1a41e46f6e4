import type { PushConfig } from '../../schemas/generated/types';
import type { Load, Send } from '../widget-props';
import { registerServiceWorker } from './service-worker';

/**
 * The outcome of turning reminders on: `on` (subscribed and saved), `refused` (the browser's permission is
 * denied, now or before), `not_supported` (no service worker, Push API or notifications in this browser),
 * `unavailable` (the server has no VAPID keys).
 */
export type ReminderState = 'on' | 'refused' | 'not_supported' | 'unavailable';

/** Whether this browser can show reminders at all (service workers, the Push API and notifications). */
export function remindersSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

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
 * prompt is asked for first, while the tap's user activation holds (SPEC §9: never on load); `onAsking` is
 * called just before the browser shows it. Then the VAPID key is read (`configEndpoint`, getPushConfig), the
 * service worker's push subscription made (or the existing one reused) and saved for the signed-in owner
 * (`subscriptionEndpoint`, savePushSubscription). Rejects with the API client's error when a call fails.
 */
export async function turnOnReminders(
  io: { load: Load; send: Send; configEndpoint: string; subscriptionEndpoint: string },
  onAsking: () => void,
): Promise<ReminderState> {
  if (!remindersSupported()) return 'not_supported';
  if (Notification.permission === 'denied') return 'refused';
  if (Notification.permission === 'default') {
    onAsking();
    if ((await Notification.requestPermission()) !== 'granted') return 'refused';
  }
  const config = (await io.load(io.configEndpoint, {})) as PushConfig;
  if (!config.enabled || !config.vapid_public_key) return 'unavailable';
  if (!(await registerServiceWorker())) return 'not_supported';
  const ready = await navigator.serviceWorker.ready;
  const subscription =
    (await ready.pushManager.getSubscription()) ??
    (await ready.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(config.vapid_public_key),
    }));
  const { endpoint, keys } = subscription.toJSON();
  await io.send(io.subscriptionEndpoint, { endpoint, keys });
  return 'on';
}

/**
 * This browser's push subscription when reminders are already on (a subscription of the service worker
 * and notifications allowed), or null. Reads only: registers nothing and asks for nothing (SPEC §9: never
 * ask on load), so a widget can show 'on' and the way to turn reminders off when it is drawn.
 */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!remindersSupported() || Notification.permission !== 'granted') return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Turns reminders off for this browser (issue 15 item 5): the subscription is deleted for the signed-in
 * owner (`subscriptionEndpoint`, DELETE deletePushSubscription; a 404 ONB_PUSH_SUBSCRIPTION_NOT_FOUND means
 * the server had already forgotten it and counts as done) and then unsubscribed in the browser's
 * PushManager, so the push service drops it too. Without a subscription there is nothing to do. Rejects
 * with the API client's error when the DELETE fails otherwise (the browser stays subscribed).
 */
export async function turnOffReminders(io: { send: Send; subscriptionEndpoint: string }): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    await io.send(io.subscriptionEndpoint, { endpoint: subscription.endpoint }, undefined, 'DELETE');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ONB_PUSH_SUBSCRIPTION_NOT_FOUND') throw error;
  }
  await subscription.unsubscribe();
}
