import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/instance';
import { dispatch, type DispatchContext } from './dispatcher';
import type { ShellHost } from './host';
import { PUSH_CONFIG_PATH, PUSH_SUBSCRIPTION_PATH } from './reminders';
import { registerServiceWorkerLater, SERVICE_WORKER_SCOPE, SERVICE_WORKER_URL } from './service-worker';

const VAPID_PUBLIC_KEY =
  'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/abc123';
const KEYS = { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) };

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A browser with service workers, the Push API and notifications, whose permission is `permission`. */
function fakeBrowser(permission: NotificationPermission, answer: NotificationPermission = 'granted') {
  const subscription = { toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: KEYS }) };
  const pushManager = {
    getSubscription: vi.fn(async () => null),
    subscribe: vi.fn(async (_options: PushSubscriptionOptionsInit) => subscription),
  };
  const registration = { pushManager };
  const serviceWorker = { register: vi.fn(async () => registration), ready: Promise.resolve(registration) };
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  const requestPermission = vi.fn(async () => answer);
  vi.stubGlobal('Notification', { permission, requestPermission });
  vi.stubGlobal('PushManager', function PushManager() {});
  return { pushManager, serviceWorker, requestPermission };
}

function makeCtx() {
  const toast = vi.fn<ShellHost['toast']>();
  const host = { toast } as unknown as ShellHost;
  const ctx: DispatchContext = {
    screenId: 'task',
    store: createStore(),
    host,
    getWidgets: () => [],
    refresh: vi.fn(),
    t: (key, values) => i18n.t(key, values),
  };
  return { ctx, toast };
}

const enable = (ctx: DispatchContext) => dispatch([{ type: 'enable_reminders' }], ctx);

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
  vi.useRealTimers();
});

describe('enable_reminders (Remind me to finish)', () => {
  it('says so where the browser cannot show reminders, and asks nothing', async () => {
    const { ctx, toast } = makeCtx();
    expect(await enable(ctx)).toBe(false);
    expect(toast).toHaveBeenCalledWith({ text: 'This browser cannot show reminders.', status: 'warning' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('does not prompt again when the browser has refused notifications before', async () => {
    const browser = fakeBrowser('denied');
    const { ctx, toast } = makeCtx();
    expect(await enable(ctx)).toBe(false);
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledWith({
      text: 'Notifications are blocked for this site. Allow them in your browser settings to get reminders.',
      status: 'warning',
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks for permission on the tap, and stops when the owner refuses', async () => {
    const browser = fakeBrowser('default', 'denied');
    const { ctx, toast } = makeCtx();
    expect(await enable(ctx)).toBe(false);
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(toast.mock.calls.map(([t]) => t.text)).toEqual([
      'Allow notifications when your browser asks, to get reminders.',
      'Notifications are blocked for this site. Allow them in your browser settings to get reminders.',
    ]);
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('subscribes with the VAPID key and saves the subscription once permission is granted', async () => {
    const browser = fakeBrowser('default', 'granted');
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url.endsWith(PUSH_CONFIG_PATH)) {
        return json(200, { success: true, data: { enabled: true, vapid_public_key: VAPID_PUBLIC_KEY } });
      }
      if (url.endsWith(PUSH_SUBSCRIPTION_PATH) && init?.method === 'PUT')
        return new Response(null, { status: 204 });
      return json(404, { success: false, error: { message: 'no' } });
    });
    const { ctx, toast } = makeCtx();
    expect(await enable(ctx)).toBe(true);
    const [options] = browser.pushManager.subscribe.mock.calls[0]!;
    expect(options.userVisibleOnly).toBe(true);
    const key = options.applicationServerKey as Uint8Array;
    expect(Array.from(key)).toEqual(Array.from(Buffer.from(VAPID_PUBLIC_KEY, 'base64url')));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(put[1]!.body as string)).toEqual({ endpoint: ENDPOINT, keys: KEYS });
    expect(toast).toHaveBeenLastCalledWith({
      text: 'Reminders are on. We will remind you if your listing is waiting.',
      status: 'success',
    });
  });

  it('says reminders are not available when the server has no VAPID keys', async () => {
    const browser = fakeBrowser('granted');
    fetchMock.mockResolvedValue(
      json(200, { success: true, data: { enabled: false, vapid_public_key: null } }),
    );
    const { ctx, toast } = makeCtx();
    expect(await enable(ctx)).toBe(false);
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    expect(toast).toHaveBeenLastCalledWith({
      text: 'Reminders are not available right now.',
      status: 'warning',
    });
  });
});

describe('the service worker (SPEC §9 web push starts after a 1 s delay)', () => {
  it('is registered 1 s after start, and no permission is asked', async () => {
    vi.useFakeTimers();
    const browser = fakeBrowser('default');
    registerServiceWorkerLater();
    await vi.advanceTimersByTimeAsync(999);
    expect(browser.serviceWorker.register).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(browser.serviceWorker.register).toHaveBeenCalledWith(SERVICE_WORKER_URL, {
      scope: SERVICE_WORKER_SCOPE,
    });
    expect(browser.requestPermission).not.toHaveBeenCalled();
  });
});
