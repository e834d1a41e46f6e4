// @vitest-environment node
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTestLead, sharedDatabase, signInNewOwner } from '../test-helpers';
import { startPushServiceStandIn, type PushServiceStandIn } from '../test-support/push-service';
import { PUSH_SUBSCRIPTION_PATH } from '../routes/push';

/**
 * The background scheduler as the server runs it: pg-boss when the tests run on PostgreSQL
 * (TEST_DATABASE_URL), the in-process timer on PGlite. A quiet listing gets its reminder at the loopback
 * push service without anyone calling the job.
 */
const vapidKeys = webpush.generateVAPIDKeys();
const vapid = { ...vapidKeys, subject: 'https://partners.example.com/contact' };
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let pushService: PushServiceStandIn;
let app: FastifyInstance;

beforeAll(async () => {
  pushService = await startPushServiceStandIn();
  app = await buildTestApp({
    config: {
      vapid,
      pushServiceHosts: ['127.0.0.1'],
      reminderAfterMs: 1,
      reminderPeriodMs: 3600_000,
      reminderCheckMs: 500,
    },
  });
});

afterAll(async () => {
  await app.close();
  await pushService.close();
  const handle = await sharedDatabase();
  if (onPostgres && handle.schema && process.env.TEST_DATABASE_URL) {
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    await c.query(`drop schema if exists ${handle.schema}_pgboss cascade`);
    await c.end();
  }
});

describe('the reminder scheduler', () => {
  it(`runs on ${onPostgres ? 'pg-boss (PostgreSQL)' : 'an in-process timer (PGlite)'} and sends a due reminder once`, async () => {
    expect(app.reminderScheduler?.kind).toBe(onPostgres ? 'pg-boss' : 'in-process');
    const cookie = await signInNewOwner(app);
    const lead = await createTestLead(app, cookie, { title: 'Villa Serena' });
    const sub = pushService.subscribe(vapid.publicKey);
    const saved = await app.inject({
      method: 'POST',
      url: PUSH_SUBSCRIPTION_PATH,
      headers: { cookie },
      payload: sub,
    });
    expect(saved.statusCode, saved.body).toBe(204);

    const [message] = await pushService.waitForMessages(1);
    expect(sub.endpoint.endsWith(`/${message!.id}`)).toBe(true);
    expect(JSON.parse(message!.text)).toMatchObject({
      title: 'Finish listing Villa Serena',
      url: `/propertyOnboard/task?property_unique_id=${lead.property_unique_id}`,
    });
    // The period is recorded, so later rounds (on any instance) leave this owner alone until it ends.
    const reminded = await app.db.selectFrom('push_reminders').selectAll().executeTakeFirstOrThrow();
    expect(reminded.property_unique_id).toBe(lead.property_unique_id);
    expect(new Date(reminded.last_sent_at).getTime()).toBeLessThanOrEqual(Date.now());
  });
});
