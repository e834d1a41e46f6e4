import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReminderButtonContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { harness } from '../test-harness';
import type { Load, Send } from '../widget-props';
import { ReminderButton } from './reminder-button';
import { registerServiceWorkerLater, SERVICE_WORKER_SCOPE, SERVICE_WORKER_URL } from './service-worker';

const VAPID_PUBLIC_KEY = Buffer.from([4, ...Array.from({ length: 64 }, (_, i) => i)]).toString('base64url');
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/abc123';
const KEYS = { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) };
const contents = fixtureContents<ReminderButtonContents>('reminder_button', 'remind-me');

/**
 * A browser with service workers, the Push API and notifications, whose permission is `permission`; with
 * `subscribed`, its service worker already has a push subscription (reminders turned on before).
 */
function fakeBrowser(
  permission: NotificationPermission,
  answer: NotificationPermission = 'granted',
  subscribed = false,
) {
  const subscription = {
    endpoint: ENDPOINT,
    toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: KEYS }),
    unsubscribe: vi.fn(async () => {
      current = null;
      return true;
    }),
  };
  let current: typeof subscription | null = subscribed ? subscription : null;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (_options: PushSubscriptionOptionsInit) => (current = subscription)),
  };
  const registration = { pushManager };
  const serviceWorker = {
    register: vi.fn(async () => registration),
    getRegistration: vi.fn(async () => registration),
    ready: Promise.resolve(registration),
  };
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  const notification = {
    permission,
    requestPermission: vi.fn(async () => (notification.permission = answer)),
  };
  const { requestPermission } = notification;
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', function PushManager() {});
  return { pushManager, serviceWorker, requestPermission, subscription };
}

const configLoad = (enabled: boolean) =>
  vi.fn<Load>(async () => ({ enabled, vapid_public_key: enabled ? VAPID_PUBLIC_KEY : null }));

function draw(load: Load = configLoad(true), send: Send = vi.fn<Send>(async () => undefined)) {
  render(harness({ component: ReminderButton, contents, load, send }));
  return { button: screen.getByRole('button', { name: contents.label }), status: screen.getByRole('status') };
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
  vi.useRealTimers();
});

describe('reminder_button fixtures', () => {
  it.each(goodFixtures('reminder_button').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('reminder_button', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('reminder_button').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('reminder_button', env.contents).valid).toBe(false);
    },
  );
});

describe("reminder_button ('Remind me to finish')", () => {
  it('says so where the browser cannot show reminders, and cannot be tapped', () => {
    const load = configLoad(true);
    const { button, status } = draw(load);
    expect(button).toBeDisabled();
    expect(status).toHaveTextContent(contents.not_supported_text);
    expect(load).not.toHaveBeenCalled();
  });

  it('asks nothing on load, and shows that the browser refused notifications before', () => {
    const browser = fakeBrowser('denied');
    const { button, status } = draw();
    expect(button).toBeDisabled();
    expect(status).toHaveTextContent(contents.refused_text);
    expect(browser.requestPermission).not.toHaveBeenCalled();
  });

  it('asks for permission only on the tap, and stops when the owner refuses', async () => {
    const browser = fakeBrowser('default', 'denied');
    let answer: (p: NotificationPermission) => void = () => {};
    browser.requestPermission.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const load = configLoad(true);
    const { button, status } = draw(load);
    expect(status).toHaveTextContent('');
    expect(browser.requestPermission).not.toHaveBeenCalled();
    await userEvent.click(button);
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(status).toHaveTextContent(contents.asking_text);
    expect(button).toHaveAttribute('aria-busy', 'true');
    answer('denied');
    await waitFor(() => expect(status).toHaveTextContent(contents.refused_text));
    expect(button).toBeDisabled();
    expect(load).not.toHaveBeenCalled();
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
  });

  it('subscribes with the VAPID key and saves the subscription once permission is granted', async () => {
    const browser = fakeBrowser('default', 'granted');
    const load = configLoad(true);
    const send = vi.fn<Send>(async () => undefined);
    const { button, status } = draw(load, send);
    await userEvent.click(button);
    await waitFor(() => expect(status).toHaveTextContent(contents.on_text));
    expect(load).toHaveBeenCalledWith(contents.config_endpoint, {});
    const [options] = browser.pushManager.subscribe.mock.calls[0]!;
    expect(options.userVisibleOnly).toBe(true);
    expect(Array.from(options.applicationServerKey as Uint8Array)).toEqual(
      Array.from(Buffer.from(VAPID_PUBLIC_KEY, 'base64url')),
    );
    expect(browser.serviceWorker.register).toHaveBeenCalledWith(SERVICE_WORKER_URL, {
      scope: SERVICE_WORKER_SCOPE,
    });
    expect(send).toHaveBeenCalledWith(contents.subscription_endpoint, { endpoint: ENDPOINT, keys: KEYS });
    expect(button).toBeDisabled();
  });

  it('says reminders are not available when the server has no VAPID keys', async () => {
    const browser = fakeBrowser('granted');
    const send = vi.fn<Send>(async () => undefined);
    const { button, status } = draw(configLoad(false), send);
    await userEvent.click(button);
    await waitFor(() => expect(status).toHaveTextContent(contents.unavailable_text));
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
    expect(button).toBeEnabled();
  });

  it("shows the API's message when the subscription cannot be saved, and may be tapped again", async () => {
    fakeBrowser('granted');
    const send = vi.fn<Send>(async () => {
      throw Object.assign(new Error('Invalid Input'), { status: 400, message: 'Invalid Input' });
    });
    const { button, status } = draw(configLoad(true), send);
    await userEvent.click(button);
    await waitFor(() => expect(status).toHaveTextContent('Invalid Input'));
    expect(button).toBeEnabled();
  });
});

describe('turning reminders off (issue 15 item 5)', () => {
  const offButton = () => screen.queryByRole('button', { name: contents.off_label });

  it('offers no way off before reminders are on', () => {
    fakeBrowser('default');
    draw();
    expect(offButton()).toBeNull();
  });

  it('shows reminders already on from an earlier visit without asking, and turns them off', async () => {
    const browser = fakeBrowser('granted', 'granted', true);
    const send = vi.fn<Send>(async () => undefined);
    const { button, status } = draw(configLoad(true), send);
    await waitFor(() => expect(status).toHaveTextContent(contents.on_text));
    expect(button).toBeDisabled();
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(browser.serviceWorker.register).not.toHaveBeenCalled();
    await userEvent.click(offButton()!);
    await waitFor(() => expect(status).toHaveTextContent(contents.off_text!));
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith(
      contents.subscription_endpoint,
      { endpoint: ENDPOINT },
      undefined,
      'DELETE',
    );
    expect(browser.subscription.unsubscribe).toHaveBeenCalledTimes(1);
    expect(offButton()).toBeNull();
    // It can be turned on again.
    expect(button).toBeEnabled();
  });

  it('turns off reminders just turned on; a subscription the server had forgotten counts as off', async () => {
    const browser = fakeBrowser('default', 'granted');
    const send = vi.fn<Send>(async (_endpoint, _body, _signal, method) => {
      if (method === 'DELETE')
        throw Object.assign(new Error('Not found'), { status: 404, code: 'ONB_PUSH_SUBSCRIPTION_NOT_FOUND' });
      return undefined;
    });
    const { button, status } = draw(configLoad(true), send);
    expect(offButton()).toBeNull();
    await userEvent.click(button);
    await waitFor(() => expect(status).toHaveTextContent(contents.on_text));
    await userEvent.click(offButton()!);
    await waitFor(() => expect(status).toHaveTextContent(contents.off_text!));
    expect(browser.subscription.unsubscribe).toHaveBeenCalledTimes(1);
  });

  it("keeps the browser subscribed and shows the API's message when the server refuses", async () => {
    const browser = fakeBrowser('granted', 'granted', true);
    const send = vi.fn<Send>(async () => {
      throw Object.assign(new Error('Unable to connect'), { status: 0, message: 'Unable to connect' });
    });
    const { status } = draw(configLoad(true), send);
    await waitFor(() => expect(offButton()).not.toBeNull());
    await userEvent.click(offButton()!);
    await waitFor(() => expect(status).toHaveTextContent('Unable to connect'));
    expect(browser.subscription.unsubscribe).not.toHaveBeenCalled();
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
