import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordServerEvent } from '../../services/analytics-store';
import { funnelText } from '../../services/funnel';
import { OWNER_ROLE } from '../../services/users';
import { makeLeadReady, READY_SECTION_DATA } from '../../test-support/publish';
import { buildTestApp, createTestLead, signInNewOwner, uniquePhone } from '../../test-helpers';
import { FUNNEL_PAGE_PATH, FUNNEL_PATH } from '.';

const TOKEN = 'funnel-staff-token-0123456789';
const LEADS = '/hms_ms/api/v1/onboard/leads';
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ config: { supportStaffToken: TOKEN } });
});

const eventsOf = async (userId: string) =>
  (
    await app.db
      .selectFrom('analytics_events')
      .select(['event', 'properties', 'source'])
      .where('user_id', '=', userId)
      .orderBy('received_at')
      .execute()
  ).map((r) => ({
    event: r.event,
    ...(typeof r.properties === 'string' ? JSON.parse(r.properties) : r.properties),
  }));

describe('events the BFF records where the state changes', () => {
  it('records the sign-in steps, the lead, a submitted task, and publish error then success', async () => {
    const cookie = await signInNewOwner(app);
    const userId = (
      await app.db
        .selectFrom('sessions')
        .select('user_id')
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).user_id;
    const lead = await createTestLead(app, cookie);
    const id = lead.property_unique_id;
    const saved = await app.inject({
      method: 'PUT',
      url: `${LEADS}/${id}/sections/basic_info`,
      headers: { cookie },
      payload: { data: READY_SECTION_DATA.basic_info, version: 1, draft: false },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const refused = await app.inject({ method: 'POST', url: `${LEADS}/${id}/publish`, headers: { cookie } });
    expect(refused.statusCode).toBe(422);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const published = await app.inject({
      method: 'POST',
      url: `${LEADS}/${id}/publish`,
      headers: { cookie },
    });
    expect(published.statusCode, published.body).toBe(200);

    // The code is asked for signed out: that step has no user id yet.
    const codeSent = await app.db
      .selectFrom('analytics_events')
      .select('user_id')
      .where('event', '=', 'sign_in_code_sent')
      .execute();
    expect(codeSent.length).toBeGreaterThan(0);
    expect(codeSent.every((r) => r.user_id === null)).toBe(true);
    expect(await eventsOf(userId)).toEqual([
      { event: 'signed_in', route: '/hms_ms/api/v2/verify_otp' },
      {
        event: 'lead_created',
        property_unique_id: id,
        property_type: 'hotel',
        property_sub_type: 'boutique_hotel',
      },
      { event: 'checklist_task_submitted', property_unique_id: id, task: 'basic_info', completed: true },
      { event: 'publish_error', property_unique_id: id, error_code: 'ONB_PUBLISH_NOT_READY', status: 422 },
      { event: 'publish_success', property_unique_id: id, status: 'LIVE', already_published: false },
    ]);
  });
});

describe('the staff funnel', () => {
  const start = Date.now() - 3 * 24 * 3600_000;
  const owner = async (offsetS: number) => {
    const id = randomUUID();
    await app.db
      .insertInto('users')
      .values({
        id,
        phone: uniquePhone(),
        country_code: 'IN',
        language: 'en-GB',
        devise_role: OWNER_ROLE,
        email: null,
        team: null,
        email_verified_at: null,
        password_hash: null,
        // users.created_at is Generated<Timestamp>: Kysely types it as not insertable, PostgreSQL takes it.
        created_at: new Date(start + offsetS * 1000) as never,
      })
      .execute();
    return { id, at: start + offsetS * 1000 };
  };
  const step = (user: { id: string; at: number }, name: string, afterS: number, properties = {}) =>
    recordServerEvent(app.db, { userId: user.id, name, properties, at: user.at + afterS * 1000 });

  let fresh: { owners: number; steps: { step: string; reached: number; median_s: number | null }[] };

  beforeAll(async () => {
    const before = await app.inject({
      url: `${FUNNEL_PATH}?days=7`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const base = before.json().data as typeof fresh;
    const a = await owner(0);
    const b = await owner(10);
    await owner(20);
    await step(a, 'lead_created', 60);
    await step(a, 'lead_created', 500); // a second lead: the first one counts
    await step(b, 'lead_created', 180);
    await step(a, 'checklist_task_submitted', 120, { task: 'basic_info' });
    await step(a, 'checklist_task_submitted', 300, { task: 'kyc' });
    await step(a, 'photo_uploaded', 240, { category: 'facade' });
    await step(a, 'publish_success', 3600);
    await step(b, 'publish_error', 400, { error_code: 'ONB_PUBLISH_NOT_READY' });
    const res = await app.inject({
      url: `${FUNNEL_PATH}?days=7`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const now = res.json().data as typeof fresh;
    // What the three synthetic owners added to whatever the file's other tests left.
    fresh = {
      owners: now.owners - base.owners,
      steps: now.steps.map((s, i) => ({ ...s, reached: s.reached - base.steps[i]!.reached })),
    };
  });

  it('counts, for each step, the owners who reached it', () => {
    const reached = Object.fromEntries(fresh.steps.map((s) => [s.step, s.reached]));
    expect(fresh.owners).toBe(3);
    expect(reached).toMatchObject({
      sign_up: 3,
      lead_created: 2,
      task_basic_info: 1,
      task_address: 0,
      photos: 1,
      kyc: 1,
      contract: 0,
      publish: 1,
    });
  });

  it('gives the median time from sign-up to each step reached first', async () => {
    const owners = await app.inject({
      url: `${FUNNEL_PATH}?days=7`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const steps = owners.json().data.steps as { step: string; median_s: number | null; reached: number }[];
    const by = Object.fromEntries(steps.map((s) => [s.step, s]));
    // Only the synthetic owners have times over a minute: the signed-in owner of the other test took ms.
    expect(by.publish!.median_s).toBeGreaterThanOrEqual(0);
    expect(by.task_address!.median_s).toBeNull();
    const text = funnelText(owners.json().data);
    expect(text).toMatch(/^lead_created\s+█*·*\s+\d+\s+\d+%\s+median /m);
  });

  it('computes the median over the owners who reached the step', async () => {
    const only = await buildTestApp({ config: { supportStaffToken: TOKEN } });
    // Owners two days old: a window of 1 day leaves them out, 7 days takes them in.
    const one = await only.inject({
      url: `${FUNNEL_PATH}?days=1`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const week = await only.inject({
      url: `${FUNNEL_PATH}?days=7`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(week.json().data.owners - one.json().data.owners).toBe(3);
    const lead = (week.json().data.steps as { step: string; median_s: number }[]).find(
      (s) => s.step === 'lead_created',
    );
    // Of the week's owners with a lead, the synthetic ones took 60 s and 180 s; the signed-in one ~0 s.
    expect([60, 120, 180]).toContain(lead!.median_s);
  });

  it('refuses without the staff token (401), with a bad window (400), and answers 404 with no token set', async () => {
    const none = await app.inject({ url: FUNNEL_PATH });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: { code: 'ONB_STAFF_UNAUTHORIZED' } });
    expect(
      (await app.inject({ url: FUNNEL_PATH, headers: { authorization: 'Bearer nope' } })).statusCode,
    ).toBe(401);
    const bad = await app.inject({
      url: `${FUNNEL_PATH}?days=0`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(bad.statusCode).toBe(400);
    const off = await buildTestApp({ config: { supportStaffToken: null } });
    expect(
      (await off.inject({ url: FUNNEL_PATH, headers: { authorization: `Bearer ${TOKEN}` } })).statusCode,
    ).toBe(404);
  });

  it('serves the page with a chart to the browser prompt (Basic), and asks for it otherwise', async () => {
    const ask = await app.inject({ url: FUNNEL_PAGE_PATH });
    expect(ask.statusCode).toBe(401);
    expect(ask.headers['www-authenticate']).toMatch(/^Basic realm="staff"/);
    const wrong = Buffer.from('staff:wrong').toString('base64');
    expect(
      (await app.inject({ url: FUNNEL_PAGE_PATH, headers: { authorization: `Basic ${wrong}` } })).statusCode,
    ).toBe(401);
    const basic = Buffer.from(`staff:${TOKEN}`).toString('base64');
    const page = await app.inject({
      url: `${FUNNEL_PAGE_PATH}?days=7`,
      headers: { authorization: `Basic ${basic}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<svg role="img" aria-label="Funnel chart"');
    expect(page.body).toMatch(/<td>lead_created<\/td><td>\d+<\/td>/);
  });
});
