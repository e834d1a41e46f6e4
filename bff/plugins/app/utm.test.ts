import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTestLead, uniquePhone } from '../../test-helpers';
import { readUtm, UTM_COOKIE } from './utm';

let app: FastifyInstance;
beforeAll(async () => {
  // A second sign-in of the same number asks for a new code at once.
  app = await buildTestApp({ config: { otpResendCooldownMs: 0 } });
});

/** Opens an entry link and answers the campaign cookie it set, as `name=value` (or null). */
async function enter(query: string): Promise<string | null> {
  const res = await app.inject({ method: 'GET', url: `/propertyOnboard/sign_up?${query}` });
  const cookie = res.cookies.find((c) => c.name === UTM_COOKIE);
  if (!cookie) return null;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  return `${cookie.name}=${encodeURIComponent(cookie.value)}`;
}

/** Signs a new owner up with `cookie` sent on every call, as a browser would; answers all cookies. */
async function signUpWith(cookie: string, phone = uniquePhone()): Promise<{ cookie: string; phone: string }> {
  await app.inject({
    method: 'POST',
    url: '/hms_ms/api/v2/request_otp',
    headers: { cookie },
    payload: { phone, purpose: 'sign_up' },
  });
  // The outbox lists the newest first: the code of this sign-in.
  const code = (await app.inject('/__dev/outbox'))
    .json<{ to: string; code: string }[]>()
    .find((e) => e.to === phone)?.code;
  const verified = await app.inject({
    method: 'POST',
    url: '/hms_ms/api/v2/verify_otp',
    headers: { cookie },
    payload: { phone, purpose: 'sign_up', otp: code },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return { cookie: [cookie, ...verified.cookies.map((c) => `${c.name}=${c.value}`)].join('; '), phone };
}

const userUtm = async (phone: string) =>
  (await app.db.selectFrom('users').select('utm').where('phone', '=', phone).executeTakeFirstOrThrow()).utm;

describe('campaign attribution (issue 15 item 6, SPEC §3)', () => {
  it('keeps the entry link’s campaign through sign-up and stores it with the user and the lead', async () => {
    const utm = await enter('utm_source=facebook&utm_medium=cpc&utm_campaign=diwali_2026&lang=hi');
    expect(utm).not.toBeNull();
    const owner = await signUpWith(utm!);
    const campaign = { utm_source: 'facebook', utm_medium: 'cpc', utm_campaign: 'diwali_2026' };
    expect(await userUtm(owner.phone)).toEqual(campaign);
    const lead = await createTestLead(app, owner.cookie);
    const row = await app.db
      .selectFrom('leads')
      .select('utm')
      .where('id', '=', lead.lead_id)
      .executeTakeFirstOrThrow();
    expect(row.utm).toEqual(campaign);
  });

  it('keeps the first campaign of a user: a later sign-in from another campaign does not replace it', async () => {
    const first = await signUpWith((await enter('utm_source=google'))!);
    await signUpWith((await enter('utm_source=newsletter'))!, first.phone);
    expect(await userUtm(first.phone)).toEqual({ utm_source: 'google' });
  });

  it('stores nothing without a campaign, and sets no cookie for an address without one', async () => {
    expect(await enter('lang=en')).toBeNull();
    const plain = await signUpWith('');
    expect(await userUtm(plain.phone)).toBeNull();
    const lead = await createTestLead(app, plain.cookie);
    const row = await app.db
      .selectFrom('leads')
      .select('utm')
      .where('id', '=', lead.lead_id)
      .executeTakeFirstOrThrow();
    expect(row.utm).toBeNull();
  });

  it('drops values that are too long, empty or hold control characters, and a forged cookie', async () => {
    expect(readUtm({ utm_source: 'x'.repeat(101), utm_medium: ' ', utm_campaign: 'a\u0007b' })).toBeNull();
    expect(readUtm({ utm_source: ['a', 'b'], utm_term: 'kept out' })).toBeNull();
    expect(readUtm({ utm_source: '  sms  ', other: 'x' })).toEqual({ utm_source: 'sms' });
    expect(await enter(`utm_source=${'x'.repeat(101)}`)).toBeNull();
    const forged = await signUpWith(`${UTM_COOKIE}=${encodeURIComponent('{"utm_source":{"$ne":1}}')}`);
    expect(await userUtm(forged.phone)).toBeNull();
    const garbage = await signUpWith(`${UTM_COOKIE}=not-json`);
    expect(await userUtm(garbage.phone)).toBeNull();
  });

  it('is stored with each analytics event of the visit', async () => {
    const utm = (await enter('utm_source=sms&utm_campaign=monsoon'))!;
    const sessionId = '3f2c1e4a-9b7d-4c1e-8a2b-5d6e7f809a1b';
    const res = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/analytics/events',
      headers: { cookie: utm },
      payload: {
        events: [
          { event: 'screen_view', at: new Date().toISOString(), session_id: sessionId, screen_id: 'sign_up' },
          {
            event: 'footer_account_click',
            at: new Date().toISOString(),
            session_id: sessionId,
            properties: { utm_source: 'own' },
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    const rows = await app.db
      .selectFrom('analytics_events')
      .select(['event', 'properties'])
      .where('session_id', '=', sessionId)
      .orderBy('event')
      .execute();
    expect(rows).toEqual([
      { event: 'footer_account_click', properties: { utm_source: 'own', utm_campaign: 'monsoon' } },
      { event: 'screen_view', properties: { utm_source: 'sms', utm_campaign: 'monsoon' } },
    ]);
  });

  it('is not set by API calls, only by pages', async () => {
    const res = await app.inject({ method: 'GET', url: '/hms_ms/api/v1/global_info?utm_source=api' });
    expect(res.cookies.find((c) => c.name === UTM_COOKIE)).toBeUndefined();
  });
});
