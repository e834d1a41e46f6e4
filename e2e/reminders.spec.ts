import { expect, test } from '@playwright/test';
import webpush from 'web-push';
import type { BenchServer } from '../bench/server';
import { startPushServiceStandIn, type PushServiceStandIn } from '../bff/test-support/push-service';
import { addHotel, signUp, startOwnServer } from './helpers';

/**
 * Issue 15 item 5, reminders by web push (SPEC §9): the service worker is registered after start, the browser
 * is asked for permission only when the owner taps 'Remind me to finish' on the checklist, the subscription is
 * stored, and the server's reminder job sends the reminder to it. Reminders need VAPID keys, so this file
 * starts its own BFF with them (on E2E_PORT + 1300) and the loopback push service stand-in of
 * bff/test-support/push-service.ts, which checks the VAPID signature and decrypts the payload.
 *
 * Chromium without the internet cannot reach its real push service, so the page's `PushManager.subscribe`
 * answers with a subscription of the stand-in, and `Notification.requestPermission` stands in for the
 * owner accepting the browser's prompt (counted, to prove it is asked only on the tap).
 */
const port = Number(process.env.E2E_PORT ?? 3210) + 1300;
const vapid = webpush.generateVAPIDKeys();

test.use({ baseURL: `http://127.0.0.1:${port}` });
test.describe.configure({ mode: 'serial' });

let server: BenchServer;
let pushService: PushServiceStandIn;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  pushService = await startPushServiceStandIn();
  server = await startOwnServer(port, {
    OTP_RESEND_COOLDOWN_MS: '1000',
    MAP_TILE_URL: 'https://127.0.0.1:9/tiles/{z}/{x}/{y}.png',
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:reminders@example.com',
    PUSH_SERVICE_HOSTS: '127.0.0.1',
    // Any listing is quiet at once, and the job looks every half second.
    REMINDER_AFTER_MS: '1',
    REMINDER_PERIOD_MS: '3600000',
    REMINDER_CHECK_MS: '500',
  });
});
test.afterAll(async () => {
  await server?.stop();
  await pushService?.close();
});

test("'Remind me to finish' asks for permission only when tapped, and the owner gets the reminder", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const subscription = pushService.subscribe(vapid.publicKey);
  await page.addInitScript((sub) => {
    const w = window as unknown as { permissionAsks: number; serverKey: number[] };
    w.permissionAsks = 0;
    let granted = false;
    Object.defineProperty(Notification, 'permission', {
      configurable: true,
      get: () => (granted ? 'granted' : 'default'),
    });
    Notification.requestPermission = async () => {
      w.permissionAsks += 1;
      granted = true;
      return 'granted';
    };
    PushManager.prototype.getSubscription = async () => null;
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      w.serverKey = Array.from(new Uint8Array(options?.applicationServerKey as ArrayBuffer));
      return { endpoint: sub.endpoint, toJSON: () => sub } as unknown as PushSubscription;
    };
  }, subscription);

  await signUp(page, request);
  const id = await addHotel(page, 'Reminder Residency');
  await page.goto(`/propertyOnboard/task?property_unique_id=${id}`);
  const remind = page.getByRole('button', { name: 'Remind me to finish' });
  await expect(remind).toBeVisible();

  // The service worker is registered after start, from the app's origin with the app's scope …
  await expect
    .poll(() =>
      page.evaluate(
        async () => (await navigator.serviceWorker.getRegistration('/propertyOnboard/'))?.scope ?? null,
      ),
    )
    .toBe(`http://127.0.0.1:${port}/propertyOnboard/`);
  // … and nothing has asked for permission to show notifications.
  expect(await page.evaluate(() => (window as unknown as { permissionAsks: number }).permissionAsks)).toBe(0);

  await remind.click();
  await expect(page.getByRole('status').filter({ hasText: 'Reminders are on.' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { permissionAsks: number }).permissionAsks)).toBe(1);
  const serverKey = await page.evaluate(() => (window as unknown as { serverKey: number[] }).serverKey);
  expect(Buffer.from(serverKey).toString('base64url')).toBe(vapid.publicKey);
  await expect(remind).toBeDisabled();

  // The subscription is stored: the reminder job sends the reminder to it, signed and encrypted.
  const [message] = await pushService.waitForMessages(1);
  expect(subscription.endpoint.endsWith(`/${message!.id}`)).toBe(true);
  expect(JSON.parse(message!.text)).toEqual({
    title: 'Finish listing Reminder Residency',
    body: 'A few steps are left before your property can go live. Tap to continue.',
    lang: 'en-GB',
    tag: `reminder-${id}`,
    url: `/propertyOnboard/task?property_unique_id=${id}`,
  });
});
