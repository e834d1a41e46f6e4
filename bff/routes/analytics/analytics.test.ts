import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signInNewOwner } from '../../test-helpers';
import { BUILD_VARIANTS } from '../../../schemas/app/build-variants';
import { ANALYTICS_EVENTS_PATH, isPersonalKey } from '.';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp();
});

function post(payload: unknown, cookie?: string, url = ANALYTICS_EVENTS_PATH) {
  return app.inject({
    method: 'POST',
    url,
    headers: cookie ? { cookie } : {},
    payload: payload as object,
  });
}

const rowsOf = (sessionId: string) =>
  app.db
    .selectFrom('analytics_events')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('occurred_at')
    .execute();

const event = (sessionId: string, over: Record<string, unknown> = {}) => ({
  event: 'screen_view',
  at: '2026-11-24T09:00:00.000Z',
  session_id: sessionId,
  ...over,
});

describe('POST /hms_ms/api/v1/analytics/events', () => {
  it('stores a batch signed out with 202 and no user id', async () => {
    const sid = randomUUID();
    const res = await post({
      events: [
        event(sid, {
          screen_id: 'dashboard',
          properties: { from: 'account', count: 2, ok: true, none: null },
        }),
        event(sid, { event: 'footer_account_click', at: '2026-11-24T09:00:01.500Z' }),
      ],
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ success: true, data: { accepted: 2 } });
    const rows = await rowsOf(sid);
    expect(rows.map((r) => [r.event, r.screen_id, r.user_id, r.properties])).toEqual([
      ['screen_view', 'dashboard', null, { from: 'account', count: 2, ok: true, none: null }],
      ['footer_account_click', null, null, {}],
    ]);
    expect(new Date(rows[1]!.occurred_at).toISOString()).toBe('2026-11-24T09:00:01.500Z');
    expect(rows[0]!.received_at).toBeInstanceOf(Date);
  });

  it('gives the events of a signed-in request the user id of its session', async () => {
    const cookie = await signInNewOwner(app);
    const sid = randomUUID();
    expect((await post({ events: [event(sid)] }, cookie)).statusCode).toBe(202);
    const [row] = await rowsOf(sid);
    const session = await app.db
      .selectFrom('sessions')
      .select('user_id')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(row?.user_id).toBe(session.user_id);
    expect(row?.user_id).toBeTruthy();
  });

  const sid = randomUUID();
  const refused: [string, unknown][] = [
    ['no body', undefined],
    ['an empty batch', { events: [] }],
    ['more than 50 events', { events: Array.from({ length: 51 }, () => event(sid)) }],
    ['an unknown top-level field', { events: [event(sid)], user: 'x' }],
    ['an unknown event field', { events: [event(sid, { user_id: 'u1' })] }],
    ['a name not in snake_case', { events: [event(sid, { event: 'ScreenView' })] }],
    ['a name longer than 64', { events: [event(sid, { event: 'a'.repeat(65) })] }],
    ['a session id that is not a UUID', { events: [event(sid, { session_id: 'abc' })] }],
    ['a missing at', { events: [{ event: 'screen_view', session_id: sid }] }],
    ['an at that is not a date-time', { events: [event(sid, { at: 'yesterday' })] }],
    ['an at before 2000', { events: [event(sid, { at: '0001-01-01T00:00:00Z' })] }],
    ['a non-scalar property', { events: [event(sid, { properties: { a: { b: 1 } } })] }],
    [
      'more than 20 properties',
      {
        events: [
          event(sid, { properties: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) }),
        ],
      },
    ],
    ['a phone key', { events: [event(sid, { properties: { phone: '1' } })] }],
    ['an email key', { events: [event(sid, { properties: { owner_email: '1' } })] }],
    ['a name key', { events: [event(sid, { properties: { first_name: 'A' } })] }],
    ['a lone surrogate', { events: [event(sid, { properties: { from: '\ud800' } })] }],
  ];
  it.each(refused)('refuses %s with 400 and stores nothing', async (_what, body) => {
    const res = await post(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'ONB_INVALID_INPUT' } });
    expect(await rowsOf(sid)).toEqual([]);
  });

  it('answers 400 to a batch where one event of many is bad, storing none of it', async () => {
    const s = randomUUID();
    const res = await post({ events: [event(s), event(s, { properties: { mobile: '9' } })] });
    expect(res.statusCode).toBe(400);
    expect(await rowsOf(s)).toEqual([]);
  });
});

describe('the analytics target of the China build (SPEC §9, issue 15 item 7)', () => {
  it('stores the China build’s events like the standard ones, tagged build_variant china', async () => {
    const sid = randomUUID();
    const res = await post(
      {
        events: [event(sid, { screen_id: 'sign_up', properties: { from: 'cn', build_variant: 'standard' } })],
      },
      undefined,
      BUILD_VARIANTS.china.analyticsEndpoint,
    );
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ success: true, data: { accepted: 1 } });
    const rows = await rowsOf(sid);
    // The path says which build sent them; a browser cannot pass itself off as another build.
    expect(rows.map((r) => [r.event, r.screen_id, r.properties])).toEqual([
      ['screen_view', 'sign_up', { from: 'cn', build_variant: 'china' }],
    ]);
  });

  it('refuses what the standard endpoint refuses', async () => {
    const sid = randomUUID();
    const res = await post(
      { events: [event(sid, { properties: { owner_email: 'a@b.c' } })] },
      undefined,
      BUILD_VARIANTS.china.analyticsEndpoint,
    );
    expect(res.statusCode).toBe(400);
    expect(await rowsOf(sid)).toEqual([]);
  });
});

describe('personal keys', () => {
  it.each([
    'phone',
    'phone_number',
    'mobile',
    'email',
    'e_mail',
    'mail',
    'name',
    'first_name',
    'owner_name',
    'address',
    'ip_address',
    'password',
    'otp',
  ])('refuses %s', (key) => expect(isPersonalKey(key)).toBe(true));
  it.each(['from', 'screen_id', 'lead_id', 'task', 'count', 'tab', 'hostname', 'renamed'])(
    'accepts %s',
    (key) => expect(isPersonalKey(key)).toBe(false),
  );
});
