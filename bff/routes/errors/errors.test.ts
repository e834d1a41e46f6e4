import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test-helpers';
import { prepareReport, scrub, topFrame } from '../../services/error-reports';
import { CLIENT_ERRORS_PATH, ERROR_GROUPS_PATH } from '.';

const TOKEN = 'staff-token-for-tests-0123456789';
let app: FastifyInstance;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  app = await buildTestApp({
    config: { supportStaffToken: TOKEN, rateLimitMax: 1000, errorReportsPerMinute: 3 },
    logger: { level: 'warn', stream },
  });
});

let ip = 0;
/** Each call from its own client address unless `from` is given, so the per-client limit stays out of the way. */
const report = (payload: unknown, from = `10.0.0.${++ip}`) =>
  app.inject({ method: 'POST', url: CLIENT_ERRORS_PATH, payload: payload as object, remoteAddress: from });
const groups = (query = '', authorization = `Bearer ${TOKEN}`) =>
  app.inject({ url: `${ERROR_GROUPS_PATH}${query}`, headers: { authorization } });

const STACK = [
  'TypeError: Cannot read properties of undefined (reading "title")',
  '    at Checklist (https://app.example.com/propertyOnboard/assets/checklist-AbCd1234.js:12:345)',
  '    at renderWithHooks (https://app.example.com/propertyOnboard/assets/index-ZZZZ9999.js:1:2)',
].join('\n');

describe('POST /hms_ms/api/v1/errors', () => {
  it('stores a report as a group, counts the same fault again in it, and lists it for staff', async () => {
    const first = await report({
      reports: [
        {
          kind: 'widget_crash',
          message: 'Widget "tasks_3" crashed: lead 1234 missing',
          stack: STACK,
          screen_id: 'task',
        },
      ],
    });
    expect(first.statusCode, first.body).toBe(202);
    const [fp] = first.json().data.fingerprints as string[];
    expect(fp).toMatch(/^[0-9a-f]{16}$/);
    // Another owner, another number in the message, another column and build hash: the same group.
    const again = await report({
      reports: [
        {
          kind: 'widget_crash',
          message: 'Widget "tasks_7" crashed: lead 98 missing',
          stack: STACK.replace('AbCd1234', 'QwEr5678').replace(':12:345', ':12:999'),
          screen_id: 'task',
        },
      ],
    });
    expect(again.json().data.fingerprints).toEqual([fp]);
    const list = await groups('?kind=widget_crash');
    expect(list.statusCode, list.body).toBe(200);
    const group = list.json().data.groups.find((g: { fingerprint: string }) => g.fingerprint === fp);
    expect(group).toMatchObject({
      kind: 'widget_crash',
      count: 2,
      top_frame: 'at Checklist (https://app.example.com/propertyOnboard/assets/checklist.js:12',
      last_details: { screen_id: 'task' },
    });
    expect(Date.parse(group.last_seen)).toBeGreaterThanOrEqual(Date.parse(group.first_seen));
  });

  it('scrubs e-mail addresses, phone numbers, tokens and query strings before logging and storing', async () => {
    const res = await report({
      reports: [
        {
          kind: 'error',
          message:
            'failed for owner@example.com at +91 98765 43210 with eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop',
          stack: 'Error: x\n    at load (https://app.example.com/a.js?token=secret123:1:2)',
          page: '/propertyOnboard/in/kyc?phone=9876543210',
        },
      ],
    });
    expect(res.statusCode).toBe(202);
    const [fp] = res.json().data.fingerprints as string[];
    const row = await app.db
      .selectFrom('error_groups')
      .selectAll()
      .where('fingerprint', '=', fp!)
      .executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    for (const secret of ['owner@example.com', '98765', '43210', 'eyJhbGci', 'secret123', '9876543210']) {
      expect(stored).not.toContain(secret);
    }
    expect(row.message).toBe('failed for <email> at <number> with <token>');
    const logged = logLines.find((l) => (l.clientError as { fingerprint?: string })?.fingerprint === fp);
    expect(logged, 'logged with the request id').toMatchObject({
      msg: 'client error reported',
      reqId: expect.any(String),
    });
    expect(JSON.stringify(logged)).not.toContain('owner@example.com');
  });

  it('groups an api_5xx by its path template and keeps the failed call request id', async () => {
    const a = await report({
      reports: [
        {
          kind: 'api_5xx',
          message: 'HTTP 503',
          status: 503,
          path: '/hms_ms/api/v1/onboard/leads/PO1234567890/publish',
          request_id: 'req-1',
        },
      ],
    });
    const b = await report({
      reports: [
        {
          kind: 'api_5xx',
          message: 'HTTP 503',
          status: 503,
          path: '/hms_ms/api/v1/onboard/leads/PO0987654321/publish',
          request_id: 'req-2',
        },
      ],
    });
    const [fp] = a.json().data.fingerprints as string[];
    expect(b.json().data.fingerprints).toEqual([fp]);
    const row = await app.db
      .selectFrom('error_groups')
      .selectAll()
      .where('fingerprint', '=', fp!)
      .executeTakeFirstOrThrow();
    expect(row.top_frame).toBe('/hms_ms/api/v1/onboard/leads/:id/publish');
    expect(row.last_request_id).toBe('req-2');
  });

  const ok = { kind: 'error', message: 'boom' };
  const refused: [string, unknown][] = [
    ['no body', undefined],
    ['an empty batch', { reports: [] }],
    ['more than 10 reports', { reports: Array.from({ length: 11 }, () => ok) }],
    ['an unknown kind', { reports: [{ kind: 'oops', message: 'x' }] }],
    ['an unknown field', { reports: [{ ...ok, user_phone: '+919876543210' }] }],
    ['an empty message', { reports: [{ kind: 'error', message: '' }] }],
    ['a message over 1000 characters', { reports: [{ kind: 'error', message: 'x'.repeat(1001) }] }],
    ['a status under 500', { reports: [{ kind: 'api_5xx', message: 'x', status: 404 }] }],
    ['a request id with spaces', { reports: [{ ...ok, request_id: 'a b' }] }],
  ];
  it.each(refused)('refuses %s with 400 and stores nothing', async (_what, body) => {
    const before = await app.db
      .selectFrom('error_groups')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await report(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'ONB_INVALID_INPUT' } });
    const after = await app.db
      .selectFrom('error_groups')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers 429 with Retry-After once a client has sent ERROR_REPORTS_PER_MINUTE requests', async () => {
    const from = '10.9.9.9';
    for (let i = 0; i < 3; i += 1) expect((await report({ reports: [ok] }, from)).statusCode).toBe(202);
    const limited = await report({ reports: [ok] }, from);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, error: { code: 'ONB_RATE_LIMITED' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not limited by it.
    expect((await report({ reports: [ok] }, '10.9.9.10')).statusCode).toBe(202);
  });
});

describe('GET /hms_ms/api/v1/staff/errors', () => {
  it('refuses a request without the staff token, or with a wrong one, with 401', async () => {
    const none = await app.inject({ url: ERROR_GROUPS_PATH });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: { code: 'ONB_STAFF_UNAUTHORIZED' } });
    expect(none.headers['www-authenticate']).toContain('Bearer');
    expect((await groups('', 'Bearer wrong')).statusCode).toBe(401);
  });

  it('refuses a bad query with 400', async () => {
    expect((await groups('?limit=0')).statusCode).toBe(400);
    expect((await groups('?kind=nope')).statusCode).toBe(400);
  });

  it('answers 404 when no staff token is configured', async () => {
    const off = await buildTestApp({ config: { supportStaffToken: null } });
    expect(
      (await off.inject({ url: ERROR_GROUPS_PATH, headers: { authorization: 'Bearer x' } })).statusCode,
    ).toBe(404);
  });
});

describe('scrubbing and frames', () => {
  it.each([
    ['call +44 20 7946 0958 now', 'call <number> now'],
    ['mail a.b@c.co.uk', 'mail <email>'],
    ['GET /hms_ms/api/v1/x?otp=123456&phone=1', 'GET /hms_ms/api/v1/x?<query>'],
    ['ok 42 items', 'ok 42 items'],
  ])('scrub(%j) is %j', (input, output) => expect(scrub(input)).toBe(output));

  it('takes the first frame of Chrome and Firefox stacks', () => {
    expect(topFrame('Error: x\n    at f (https://h/a.js:1:2)')).toBe('at f (https://h/a.js:1');
    expect(topFrame('f@https://h/a.js:3:4\ng@https://h/b.js:5:6')).toBe('f@https://h/a.js:3');
    expect(topFrame(undefined)).toBeNull();
  });

  it('gives different faults different fingerprints', () => {
    const a = prepareReport({ kind: 'error', message: 'a is undefined', stack: 'E\n at f (x.js:1:1)' });
    const b = prepareReport({ kind: 'error', message: 'b is undefined', stack: 'E\n at f (x.js:1:1)' });
    const c = prepareReport({ kind: 'error', message: 'a is undefined', stack: 'E\n at g (x.js:9:1)' });
    expect(new Set([a.fingerprint, b.fingerprint, c.fingerprint]).size).toBe(3);
  });
});
