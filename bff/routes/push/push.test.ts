import type { FastifyInstance } from 'fastify';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultScreensDir } from '../../app';
import { loadScreenCatalogue } from '../../screens/composer';
import { createTranslations } from '../../services/translations';
import {
  buildTestApp,
  createTestLead,
  makePropertyManager,
  signInNewOwner,
  userIdOfSession,
} from '../../test-helpers';
import { startPushServiceStandIn, type PushServiceStandIn } from '../../test-support/push-service';
import { PUSH_CONFIG_PATH, PUSH_SUBSCRIPTION_PATH } from '.';

const DAY = 24 * 3600 * 1000;
const AFTER = 2 * DAY;
const PERIOD = 3 * DAY;
const vapidKeys = webpush.generateVAPIDKeys();
const vapid = {
  publicKey: vapidKeys.publicKey,
  privateKey: vapidKeys.privateKey,
  subject: 'mailto:ops@example.com',
};

let pushService: PushServiceStandIn;
let app: FastifyInstance;
let off: FastifyInstance;
/** The app's clock: tests move it forward to make a listing quiet. */
let clock = Date.now();

beforeAll(async () => {
  pushService = await startPushServiceStandIn();
  app = await buildTestApp({
    now: () => clock,
    config: {
      vapid,
      pushServiceHosts: ['127.0.0.1', 'fcm.googleapis.com'],
      reminderAfterMs: AFTER,
      reminderPeriodMs: PERIOD,
      reminderCheckMs: 0,
      // The clock moves on by weeks: sessions outlive it.
      sessionIdleMs: 365 * DAY,
      sessionAbsoluteMs: 365 * DAY,
    },
  });
  off = await buildTestApp();
});

afterAll(async () => {
  await pushService.close();
});

const save = (body: unknown, cookie?: string, on = app) =>
  on.inject({
    method: 'POST',
    url: PUSH_SUBSCRIPTION_PATH,
    headers: cookie ? { cookie } : {},
    payload: body as object,
  });

const remove = (endpoint: string, cookie?: string) =>
  app.inject({
    method: 'DELETE',
    url: PUSH_SUBSCRIPTION_PATH,
    headers: cookie ? { cookie } : {},
    payload: { endpoint },
  });

const subscriptionsOf = (userId: string) =>
  app.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).execute();

const userIdOf = (cookie: string) => userIdOfSession(app, cookie);

/** A new owner with an unpublished lead and a subscription of the stand-in; its id, cookie and endpoint. */
async function ownerWithSubscription(language = 'en-GB') {
  const cookie = await signInNewOwner(app);
  const userId = await userIdOf(cookie);
  await app.db.updateTable('users').set({ language }).where('id', '=', userId).execute();
  const lead = await createTestLead(app, cookie, { title: `Casa ${userId.slice(0, 6)}` });
  const sub = pushService.subscribe(vapid.publicKey);
  const res = await save(sub, cookie);
  expect(res.statusCode, res.body).toBe(204);
  return { cookie, userId, lead, sub };
}

describe('push routes', () => {
  it('tells the client the VAPID public key, or that reminders are off', async () => {
    const cookie = await signInNewOwner(app);
    const on = await app.inject({ url: PUSH_CONFIG_PATH, headers: { cookie } });
    expect(on.json()).toEqual({ success: true, data: { enabled: true, vapid_public_key: vapid.publicKey } });
    const offCookie = await signInNewOwner(off);
    const answer = await off.inject({ url: PUSH_CONFIG_PATH, headers: { cookie: offCookie } });
    expect(answer.json()).toEqual({ success: true, data: { enabled: false, vapid_public_key: null } });
  });

  it('refuses to save without VAPID keys configured (404 ONB_REMINDERS_OFF)', async () => {
    const cookie = await signInNewOwner(off);
    const res = await save(pushService.subscribe(vapid.publicKey), cookie, off);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('ONB_REMINDERS_OFF');
  });

  it('saves a subscription per owner, and moves an endpoint to the owner who saves it last', async () => {
    const { userId, sub, cookie } = await ownerWithSubscription();
    const rows = await subscriptionsOf(userId);
    expect(rows.map((r) => [r.endpoint, r.p256dh, r.auth])).toEqual([
      [sub.endpoint, sub.keys.p256dh, sub.keys.auth],
    ]);
    // Saving again updates, never duplicates.
    expect((await save(sub, cookie)).statusCode).toBe(204);
    expect(await subscriptionsOf(userId)).toHaveLength(1);
    // Another owner signs in on the same browser and turns reminders on: the endpoint is theirs now.
    const other = await signInNewOwner(app);
    const otherId = await userIdOf(other);
    expect((await save(sub, other)).statusCode).toBe(204);
    expect(await subscriptionsOf(userId)).toHaveLength(0);
    expect((await subscriptionsOf(otherId)).map((r) => r.endpoint)).toEqual([sub.endpoint]);
  });

  it('deletes only the signed-in owner’s own subscription', async () => {
    const { userId, sub, cookie } = await ownerWithSubscription();
    const other = await signInNewOwner(app);
    const refused = await remove(sub.endpoint, other);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('ONB_PUSH_SUBSCRIPTION_NOT_FOUND');
    expect(await subscriptionsOf(userId)).toHaveLength(1);
    expect((await remove(sub.endpoint, cookie)).statusCode).toBe(204);
    expect(await subscriptionsOf(userId)).toHaveLength(0);
    expect((await remove(sub.endpoint, cookie)).statusCode).toBe(404);
  });

  it("signing out with this browser's endpoint deletes that subscription only, and only the owner's (SPEC §8)", async () => {
    const { userId, sub, cookie } = await ownerWithSubscription();
    const second = pushService.subscribe(vapid.publicKey);
    expect((await save(second, cookie)).statusCode).toBe(204);
    // Another owner signing out with this endpoint deletes nothing of the first owner's.
    const other = await signInNewOwner(app);
    const signOut = (who: string, payload?: Record<string, unknown>) =>
      app.inject({
        method: 'POST',
        url: '/hms_ms/api/v1/onboard/users/sign_out',
        headers: { cookie: who, ...(payload ? { 'content-type': 'application/json' } : {}) },
        ...(payload ? { payload } : {}),
      });
    expect((await signOut(other, { push_endpoint: sub.endpoint })).statusCode).toBe(204);
    expect(await subscriptionsOf(userId)).toHaveLength(2);
    // A body that is not an endpoint is refused, and the session stays.
    expect((await signOut(cookie, { push_endpoint: 'javascript:alert(1)' })).statusCode).toBe(400);
    expect(
      (await app.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } })).json().data.is_logged_in,
    ).toBe(true);
    const out = await signOut(cookie, { push_endpoint: sub.endpoint });
    expect(out.statusCode).toBe(204);
    expect((await subscriptionsOf(userId)).map((r) => r.endpoint)).toEqual([second.endpoint]);
    // Signed out already, an endpoint deletes nothing; and signing out without a body still works.
    expect((await signOut(cookie, { push_endpoint: second.endpoint })).statusCode).toBe(204);
    expect(await subscriptionsOf(userId)).toHaveLength(1);
    expect((await signOut(cookie)).statusCode).toBe(204);
  });

  it('refuses signed out (401) and a PropertyManager (403)', async () => {
    const sub = pushService.subscribe(vapid.publicKey);
    expect((await save(sub)).statusCode).toBe(401);
    expect((await remove(sub.endpoint)).statusCode).toBe(401);
    expect((await app.inject({ url: PUSH_CONFIG_PATH })).statusCode).toBe(401);
    const cookie = await signInNewOwner(app);
    await makePropertyManager(app, cookie);
    const res = await save(sub, cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('ONB_ROLE_FORBIDDEN');
    expect((await remove(sub.endpoint, cookie)).statusCode).toBe(403);
  });

  const good = () => pushService.subscribe(vapid.publicKey);
  const refusedBodies: [string, () => unknown, string | undefined][] = [
    ['no body', () => undefined, undefined],
    ['an unknown field', () => ({ ...good(), user_id: 'x' }), undefined],
    ['an unknown key field', () => ({ ...good(), keys: { ...good().keys, extra: 'x' } }), undefined],
    ['no keys', () => ({ endpoint: good().endpoint }), undefined],
    ['a short auth secret', () => ({ ...good(), keys: { ...good().keys, auth: 'abc' } }), undefined],
    [
      'a p256dh that is not base64url',
      () => ({ ...good(), keys: { ...good().keys, p256dh: '!'.repeat(87) } }),
      undefined,
    ],
    [
      'a p256dh that is not a point on P-256',
      () => ({ ...good(), keys: { ...good().keys, p256dh: Buffer.alloc(65, 4).toString('base64url') } }),
      'keys.p256dh',
    ],
    ['an endpoint that is not a URL', () => ({ ...good(), endpoint: 'not a url' }), undefined],
    [
      'an endpoint on a host that is no push service',
      () => ({ ...good(), endpoint: 'https://example.com/push/1' }),
      'endpoint',
    ],
    [
      'a push service over plain http',
      () => ({ ...good(), endpoint: 'http://fcm.googleapis.com/fcm/send/1' }),
      'endpoint',
    ],
    [
      'an endpoint with credentials',
      () => ({ ...good(), endpoint: 'https://u:p@fcm.googleapis.com/x' }),
      'endpoint',
    ],
  ];
  for (const [what, body, field] of refusedBodies) {
    it(`refuses ${what} with 400 ONB_INVALID_INPUT`, async () => {
      const cookie = await signInNewOwner(app);
      const res = await save(body(), cookie);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('ONB_INVALID_INPUT');
      if (field) expect(res.json().error.field).toBe(field);
    });
  }

  it('refuses a delete body with unknown fields', async () => {
    const cookie = await signInNewOwner(app);
    const res = await app.inject({
      method: 'DELETE',
      url: PUSH_SUBSCRIPTION_PATH,
      headers: { cookie },
      payload: { endpoint: good().endpoint, all: true },
    });
    expect(res.statusCode).toBe(400);
  });

  it('lists the routes in the OpenAPI document', async () => {
    const doc = (await app.inject('/hms_ms/api/openapi.json')).json();
    expect(doc.paths[PUSH_CONFIG_PATH].get.operationId).toBe('getPushConfig');
    expect(doc.paths[PUSH_SUBSCRIPTION_PATH].post.operationId).toBe('savePushSubscription');
    expect(doc.paths[PUSH_SUBSCRIPTION_PATH].delete.operationId).toBe('deletePushSubscription');
  });
});

describe('the reminder job', () => {
  /** Parsed payloads the stand-in decrypted for this subscription. */
  const payloadsFor = (endpoint: string) =>
    pushService.received
      .filter((m) => endpoint.endsWith(`/${m.id}`))
      .map((m) => JSON.parse(m.text) as Record<string, string>);

  it('reminds an owner whose listing has had no progress, once per period, in their language', async () => {
    const { userId, lead, sub, cookie } = await ownerWithSubscription('de');
    // Not quiet long enough yet.
    clock += AFTER - 60_000;
    expect((await app.reminders.runRound()).map((o) => o.userId)).not.toContain(userId);
    clock += 60_000;
    const outcomes = await app.reminders.runRound();
    expect(outcomes.find((o) => o.userId === userId)).toEqual({
      userId,
      delivered: 1,
      expired: 0,
      failed: 0,
    });
    const [payload] = payloadsFor(sub.endpoint);
    expect(payload).toEqual({
      title: `Inserat ${lead.title} fertigstellen`,
      body: 'Nur noch wenige Schritte, bis deine Unterkunft online gehen kann. Tippe, um weiterzumachen.',
      lang: 'de',
      tag: `reminder-${lead.property_unique_id}`,
      url: `/propertyOnboard/task?property_unique_id=${lead.property_unique_id}`,
    });
    const message = pushService.received.find((m) => sub.endpoint.endsWith(`/${m.id}`));
    expect(message?.claims.aud).toBe(pushService.origin);
    expect(message?.claims.sub).toBe(vapid.subject);
    expect(message?.ttl).toBe('86400');

    // Within the period: no second reminder, however quiet the listing stays.
    clock += PERIOD - 60_000;
    expect((await app.reminders.runRound()).map((o) => o.userId)).not.toContain(userId);
    expect(payloadsFor(sub.endpoint)).toHaveLength(1);
    // The next period: one more.
    clock += 60_000;
    expect((await app.reminders.runRound()).map((o) => o.userId)).toContain(userId);
    expect(payloadsFor(sub.endpoint)).toHaveLength(2);

    // Progress on the listing: quiet again only after REMINDER_AFTER_MS.
    clock += PERIOD;
    const saved = await app.inject({
      method: 'PUT',
      url: `/hms_ms/api/v1/onboard/leads/${lead.property_unique_id}/sections/amenities`,
      headers: { cookie },
      payload: { data: {}, version: 0, draft: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await app.reminders.runRound()).map((o) => o.userId)).not.toContain(userId);
    clock += AFTER;
    expect((await app.reminders.runRound()).map((o) => o.userId)).toContain(userId);
    expect(payloadsFor(sub.endpoint)).toHaveLength(3);
  });

  it('does not remind about a published listing or an owner without a subscription', async () => {
    const { userId, lead } = await ownerWithSubscription();
    await app.db
      .updateTable('leads')
      .set({ published_at: new Date(clock), status: 'LIVE' })
      .where('id', '=', lead.lead_id)
      .execute();
    const bare = await signInNewOwner(app);
    const bareId = await userIdOf(bare);
    await createTestLead(app, bare);
    clock += AFTER + PERIOD;
    const due = (await app.reminders.findDue()).map((d) => d.userId);
    expect(due).not.toContain(userId);
    expect(due).not.toContain(bareId);
  });

  it('deletes a subscription the push service says has ended (410, 404)', async () => {
    const { userId, sub } = await ownerWithSubscription();
    const second = pushService.subscribe(vapid.publicKey);
    // The owner's second browser.
    await app.reminders.saveSubscription(userId, second);
    pushService.expire(sub.endpoint, 410);
    pushService.expire(second.endpoint, 404);
    clock += AFTER + PERIOD;
    const outcome = (await app.reminders.runRound()).find((o) => o.userId === userId);
    expect(outcome).toEqual({ userId, delivered: 0, expired: 2, failed: 0 });
    expect(await subscriptionsOf(userId)).toHaveLength(0);
  });

  it('gives the period back when the push service refuses the VAPID signature, so it is tried again', async () => {
    const cookie = await signInNewOwner(app);
    const userId = await userIdOf(cookie);
    await createTestLead(app, cookie);
    // A subscription made for another application server key: the stand-in refuses our signature (403).
    const foreign = pushService.subscribe(webpush.generateVAPIDKeys().publicKey);
    expect((await save(foreign, cookie)).statusCode).toBe(204);
    clock += AFTER + PERIOD;
    const refusedBefore = pushService.refused.length;
    expect((await app.reminders.runRound()).map((o) => o.userId)).not.toContain(userId);
    expect(pushService.refused.slice(refusedBefore)).toContainEqual(
      expect.objectContaining({ status: 403, reason: 'k is not the subscription key' }),
    );
    expect(
      await app.db.selectFrom('push_reminders').selectAll().where('user_id', '=', userId).execute(),
    ).toEqual([]);
    expect((await app.reminders.findDue()).map((d) => d.userId)).toContain(userId);
    expect(await subscriptionsOf(userId)).toHaveLength(1);
  });
});

describe("the checklist's 'Remind me to finish'", () => {
  it('is offered on an unpublished lead only while reminders are on and not turned off by a flag', async () => {
    const catalogue = loadScreenCatalogue({
      dir: defaultScreensDir,
      translate: createTranslations().translate,
    });
    const config = { vapid, pushServiceHosts: ['127.0.0.1'], reminderCheckMs: 0 };
    const on = await buildTestApp({ screens: catalogue, config });
    const flaggedOff = await buildTestApp({
      screens: catalogue,
      config: { ...config, featureFlags: { web_push_reminders: false } },
    });
    const noKeys = await buildTestApp({ screens: catalogue });
    const widgetsOf = async (server: FastifyInstance) => {
      const cookie = await signInNewOwner(server);
      const lead = await createTestLead(server, cookie);
      const res = await server.inject({
        url: `/hms_ms/api/v1/screens/task?property_unique_id=${lead.property_unique_id}`,
        headers: { cookie, httpxoyolang: 'ar' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.widget_list as {
        id: string;
        widget_type: string;
        contents: Record<string, unknown>;
      }[];
    };
    const remind = (await widgetsOf(on)).find((w) => w.id === 'remind_me');
    expect(remind).toMatchObject({
      widget_type: 'reminder_button',
      contents: {
        label: 'ذكّرني بالإكمال',
        subscription_endpoint: PUSH_SUBSCRIPTION_PATH,
        config_endpoint: PUSH_CONFIG_PATH,
        refused_text: 'الإشعارات محظورة لهذا الموقع. اسمح بها في إعدادات المتصفح لتصلك التذكيرات.',
      },
    });
    expect((await widgetsOf(flaggedOff)).map((w) => w.id)).not.toContain('remind_me');
    expect((await widgetsOf(noKeys)).map((w) => w.id)).not.toContain('remind_me');
  });
});
