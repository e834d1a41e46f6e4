import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  SupportConversationList,
  SupportMessage,
  SupportMessageList,
} from '../../../schemas/generated/types';
import { buildTestApp, signInNewOwner } from '../../test-helpers';
import { staffTokenMatches } from '.';

const BASE = '/hms_ms/api/v1/onboard/support';
const STAFF = `${BASE}/staff/conversations`;
const TOKEN = 'staff-secret-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

let app: FastifyInstance;
let clock = Date.now();

beforeAll(async () => {
  app = await buildTestApp({
    now: () => clock,
    config: {
      oyo360ChatEnabled: true,
      supportStaffToken: TOKEN,
      supportMessagesPerMinute: 3,
      // Long, so that live delivery below cannot come from the heartbeat's catch-up read.
      supportStreamHeartbeatMs: 60_000,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
});

function send(cookie: string, payload: unknown) {
  return app.inject({
    method: 'POST',
    url: `${BASE}/messages`,
    headers: { cookie },
    payload: payload as object,
  });
}

async function list(cookie: string, query = ''): Promise<SupportMessageList> {
  const res = await app.inject({ url: `${BASE}/messages${query}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: SupportMessageList }>().data;
}

async function conversationOf(phoneOrBody: (c: SupportConversationList['conversations'][number]) => boolean) {
  const res = await app.inject({ url: `${STAFF}?limit=100`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  const found = res.json<{ data: SupportConversationList }>().data.conversations.find(phoneOrBody);
  expect(found).toBeDefined();
  return found!;
}

function reply(conversationId: string, body: string) {
  return app.inject({
    method: 'POST',
    url: `${STAFF}/${conversationId}/messages`,
    headers: auth,
    payload: { body },
  });
}

/** An open event stream: its parsed events so far, and a wait for the next one matching a test. */
interface Stream {
  events: { id?: string; event: string; data: string }[];
  comments: number;
  closed: Promise<void>;
  next(
    test: (e: { id?: string; event: string; data: string }) => boolean,
    timeoutMs?: number,
  ): Promise<{
    id?: string;
    event: string;
    data: string;
  }>;
  close(): void;
}

async function openStream(
  cookie: string,
  opts: { lastEventId?: string; query?: string; on?: FastifyInstance } = {},
): Promise<Stream> {
  const { port } = (opts.on ?? app).server.address() as { port: number };
  const controller = new AbortController();
  const res = await fetch(`http://127.0.0.1:${port}${BASE}/messages/stream${opts.query ?? ''}`, {
    headers: {
      cookie,
      accept: 'text/event-stream',
      ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}),
    },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const stream: Stream = {
    events: [],
    comments: 0,
    closed: Promise.resolve(),
    next: (test, timeoutMs = 3000) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = () => {
          const hit = stream.events.find(test);
          if (hit) return resolve(hit);
          if (Date.now() - started > timeoutMs)
            return reject(new Error(`no such event in ${JSON.stringify(stream.events)}`));
          setTimeout(poll, 10);
        };
        poll();
      }),
    close: () => controller.abort(),
  };
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  stream.closed = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const e: { id?: string; event: string; data: string } = { event: 'message', data: '' };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments++;
            else if (line.startsWith('id: ')) e.id = line.slice(4);
            else if (line.startsWith('event: ')) {
              e.event = line.slice(7);
              isEvent = true;
            } else if (line.startsWith('data: ')) {
              e.data = line.slice(6);
              isEvent = true;
            }
          }
          if (isEvent) stream.events.push(e);
        }
      }
    } catch {
      // aborted
    }
  })();
  return stream;
}

const messagesOf = (s: Stream) =>
  s.events.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data) as SupportMessage);

describe('owner routes', () => {
  let owner: string;

  beforeAll(async () => {
    owner = await signInNewOwner(app);
  });

  it('needs a session', async () => {
    const res = await app.inject({ url: `${BASE}/messages` });
    expect(res.statusCode).toBe(401);
  });

  it('stores a trimmed message, lists it, and a repeated client_message_id stores nothing new', async () => {
    clock += 120_000;
    const id = randomUUID();
    const first = await send(owner, { body: '  Hello, I need help with photos  ', client_message_id: id });
    expect(first.statusCode, first.body).toBe(201);
    const message = first.json<{ data: { message: SupportMessage } }>().data.message;
    expect(message).toMatchObject({ author: 'owner', body: 'Hello, I need help with photos' });
    const again = await send(owner, { body: 'Hello, I need help with photos', client_message_id: id });
    expect(again.statusCode).toBe(200);
    expect(again.json<{ data: { message: SupportMessage } }>().data.message.message_id).toBe(
      message.message_id,
    );
    const page = await list(owner);
    expect(page.messages.filter((m) => m.body === 'Hello, I need help with photos')).toHaveLength(1);
  });

  it('refuses blank, too long and unknown fields', async () => {
    const blank = await send(owner, { body: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: { code: 'ONB_SUPPORT_MESSAGE_EMPTY', field: 'body' } });
    const long = await send(owner, { body: 'x'.repeat(2001) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ error: { code: 'ONB_INVALID_INPUT' } });
    const extra = await send(owner, { body: 'hi', author: 'staff' });
    expect(extra.statusCode).toBe(400);
  });

  it('limits messages per owner per minute, with Retry-After', async () => {
    clock += 120_000;
    const someone = await signInNewOwner(app);
    for (let i = 0; i < 3; i++) expect((await send(someone, { body: `m${i}` })).statusCode).toBe(201);
    const over = await send(someone, { body: 'one too many' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ error: { code: 'ONB_SUPPORT_RATE_LIMITED' } });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another owner is not limited by this one.
    expect((await send(owner, { body: 'still fine' })).statusCode).toBe(201);
    clock += 61_000;
    expect((await send(someone, { body: 'after a minute' })).statusCode).toBe(201);
  });

  it('pages from the newest, oldest first, and back with before_id', async () => {
    const someone = await signInNewOwner(app);
    for (let i = 1; i <= 5; i++) {
      clock += 30_000;
      expect((await send(someone, { body: `p${i}` })).statusCode).toBe(201);
    }
    const newest = await list(someone, '?limit=2');
    expect(newest.messages.map((m) => m.body)).toEqual(['p4', 'p5']);
    expect(newest.has_more).toBe(true);
    const older = await list(someone, `?limit=2&before_id=${newest.messages[0]!.message_id}`);
    expect(older.messages.map((m) => m.body)).toEqual(['p2', 'p3']);
    const oldest = await list(someone, `?limit=2&before_id=${older.messages[0]!.message_id}`);
    expect(oldest).toEqual({ messages: [expect.objectContaining({ body: 'p1' })], has_more: false });
  });

  it('shows an owner only their own conversation', async () => {
    clock += 120_000;
    const a = await signInNewOwner(app);
    const b = await signInNewOwner(app);
    expect((await send(a, { body: 'secret of A' })).statusCode).toBe(201);
    const conv = await conversationOf((c) => c.last_message?.body === 'secret of A');
    expect((await reply(conv.conversation_id, 'answer for A')).statusCode).toBe(201);
    expect((await list(b)).messages).toEqual([]);
    expect((await list(a)).messages.map((m) => [m.author, m.body])).toEqual([
      ['owner', 'secret of A'],
      ['staff', 'answer for A'],
    ]);
  });

  it('answers 404 when the chat is switched off', async () => {
    const off = await buildTestApp({ config: { oyo360ChatEnabled: false } });
    const cookie = await signInNewOwner(off);
    const res = await off.inject({
      method: 'POST',
      url: `${BASE}/messages`,
      headers: { cookie },
      payload: { body: 'x' },
    });
    expect(res.statusCode).toBe(404);
    expect((await off.inject({ url: `${BASE}/messages`, headers: { cookie } })).statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents the chat routes with their operationIds and the staff bearer scheme', async () => {
    const doc = (await app.inject('/hms_ms/api/openapi.json')).json<{
      paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>;
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
    }>();
    const ops = Object.fromEntries(
      Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((o) => [o.operationId, o])),
    );
    for (const id of ['sendSupportMessage', 'listSupportMessages', 'streamSupportMessages']) {
      expect(ops[id]?.security).toEqual([{ session: [] }]);
    }
    for (const id of ['listSupportConversations', 'listSupportConversationMessages', 'replySupportMessage']) {
      expect(ops[id]?.security).toEqual([{ staffToken: [] }]);
    }
    expect(doc.components.securitySchemes.staffToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('support-center labels', () => {
  it('are served under the feature key support-center, in the language asked', async () => {
    const owner = await signInNewOwner(app);
    const get = (lang: string) =>
      app.inject({
        url: '/hms_ms/api/v1/feature-metadata?features=support-center',
        headers: { cookie: owner, httpxoyolang: lang },
      });
    const en = (await get('en-GB')).json<{
      data: { feature_labels: Record<string, Record<string, string>> };
    }>();
    expect(en.data.feature_labels['support-center']).toMatchObject({
      title: 'Support',
      send: 'Send message',
    });
    const ar = (await get('ar')).json<{ data: { feature_labels: Record<string, Record<string, string>> } }>();
    expect(ar.data.feature_labels['support-center']!.title).toBe('الدعم');
  });
});

describe('staff routes', () => {
  it('compares the bearer token', () => {
    expect(staffTokenMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(staffTokenMatches(`bearer  ${TOKEN} `, TOKEN)).toBe(true);
    expect(staffTokenMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(staffTokenMatches(TOKEN, TOKEN)).toBe(false);
    expect(staffTokenMatches(undefined, TOKEN)).toBe(false);
    expect(staffTokenMatches('Bearer ', TOKEN)).toBe(false);
  });

  it('needs the token', async () => {
    expect((await app.inject({ url: STAFF })).statusCode).toBe(401);
    const wrong = await app.inject({ url: STAFF, headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: { code: 'ONB_STAFF_UNAUTHORIZED' } });
    expect(wrong.headers['www-authenticate']).toMatch(/^Bearer/);
    // An owner's session is not a staff token.
    const owner = await signInNewOwner(app);
    expect((await app.inject({ url: STAFF, headers: { cookie: owner } })).statusCode).toBe(401);
    const replyRes = await app.inject({
      method: 'POST',
      url: `${STAFF}/${randomUUID()}/messages`,
      headers: { cookie: owner },
      payload: { body: 'pretending to be staff' },
    });
    expect(replyRes.statusCode).toBe(401);
  });

  it('is off without a configured token', async () => {
    const off = await buildTestApp({ config: { oyo360ChatEnabled: true, supportStaffToken: null } });
    expect((await off.inject({ url: STAFF, headers: auth })).statusCode).toBe(404);
  });

  it('lists conversations awaiting a reply, reads one and replies', async () => {
    clock += 120_000;
    const owner = await signInNewOwner(app);
    expect((await send(owner, { body: 'waiting for staff' })).statusCode).toBe(201);
    const conv = await conversationOf((c) => c.last_message?.body === 'waiting for staff');
    expect(conv.awaiting_reply).toBe(true);
    expect(conv.phone).toMatch(/^\+91/);
    const awaiting = await app.inject({ url: `${STAFF}?awaiting_reply=true&limit=100`, headers: auth });
    expect(
      awaiting.json<{ data: SupportConversationList }>().data.conversations.map((c) => c.conversation_id),
    ).toContain(conv.conversation_id);
    const messages = await app.inject({ url: `${STAFF}/${conv.conversation_id}/messages`, headers: auth });
    expect(messages.json<{ data: SupportMessageList }>().data.messages.map((m) => m.body)).toEqual([
      'waiting for staff',
    ]);
    expect((await reply(conv.conversation_id, 'We are on it')).statusCode).toBe(201);
    const after = await conversationOf((c) => c.conversation_id === conv.conversation_id);
    expect(after).toMatchObject({
      awaiting_reply: false,
      last_message: { author: 'staff', body: 'We are on it' },
    });
    expect((await reply(randomUUID(), 'nobody')).statusCode).toBe(404);
    expect((await reply(conv.conversation_id, '  ')).statusCode).toBe(400);
  });
});

describe('streamSupportMessages', () => {
  it('pushes a staff reply to the owner’s open stream and resumes from Last-Event-ID', async () => {
    clock += 120_000;
    const owner = await signInNewOwner(app);
    expect((await send(owner, { body: 'opening the chat' })).statusCode).toBe(201);
    const conv = await conversationOf((c) => c.last_message?.body === 'opening the chat');

    const stream = await openStream(owner);
    const first = await reply(conv.conversation_id, 'first reply');
    const firstId = String(first.json<{ data: { message: SupportMessage } }>().data.message.message_id);
    const got = await stream.next((e) => e.event === 'message' && e.data.includes('first reply'));
    expect(got.id).toBe(firstId);
    expect(JSON.parse(got.data)).toMatchObject({ author: 'staff', body: 'first reply' });
    // Messages from before the stream opened are not repeated when no position was given.
    expect(messagesOf(stream).map((m) => m.body)).toEqual(['first reply']);
    // The owner's own message (another tab) arrives too.
    expect((await send(owner, { body: 'thanks' })).statusCode).toBe(201);
    await stream.next((e) => e.data.includes('thanks'));
    stream.close();

    // While disconnected, staff write twice; the reconnect resumes after the last event it had.
    await reply(conv.conversation_id, 'second reply');
    await reply(conv.conversation_id, 'third reply');
    const resumed = await openStream(owner, { lastEventId: firstId });
    await resumed.next((e) => e.data.includes('third reply'));
    expect(messagesOf(resumed).map((m) => m.body)).toEqual(['thanks', 'second reply', 'third reply']);
    const ids = messagesOf(resumed).map((m) => m.message_id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    resumed.close();

    // after_id in the query works for the first connection too.
    const fromStart = await openStream(owner, { query: '?after_id=0' });
    await fromStart.next((e) => e.data.includes('third reply'));
    expect(messagesOf(fromStart)[0]!.body).toBe('opening the chat');
    fromStart.close();
  });

  it('never sends another owner’s messages', async () => {
    clock += 120_000;
    const a = await signInNewOwner(app);
    const b = await signInNewOwner(app);
    const streamB = await openStream(b, { query: '?after_id=0' });
    expect((await send(a, { body: 'for A only' })).statusCode).toBe(201);
    const conv = await conversationOf((c) => c.last_message?.body === 'for A only');
    await reply(conv.conversation_id, 'reply for A only');
    expect((await send(b, { body: 'B writes' })).statusCode).toBe(201);
    await streamB.next((e) => e.data.includes('B writes'));
    expect(messagesOf(streamB).map((m) => m.body)).toEqual(['B writes']);
    streamB.close();
  });

  it('sends heartbeats and ends when the session ends', async () => {
    const quick = await buildTestApp({ config: { oyo360ChatEnabled: true, supportStreamHeartbeatMs: 100 } });
    await quick.listen({ port: 0, host: '127.0.0.1' });
    const owner = await signInNewOwner(quick);
    const stream = await openStream(owner, { on: quick });
    await new Promise((r) => setTimeout(r, 250));
    expect(stream.comments).toBeGreaterThan(0);
    const out = await quick.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/onboard/users/sign_out',
      headers: { cookie: owner },
    });
    expect(out.statusCode).toBe(204);
    await stream.next((e) => e.event === 'session_ended', 2000);
    await stream.closed;
  });

  it('refuses without a session', async () => {
    const res = await app.inject({ url: `${BASE}/messages/stream` });
    expect(res.statusCode).toBe(401);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('several instances (PostgreSQL LISTEN/NOTIFY)', () => {
  let other: FastifyInstance | undefined;
  afterAll(async () => other?.close());

  it('delivers a reply handled by another instance to the owner’s stream', async () => {
    // The main app holds the stream (heartbeat 60 s, so only NOTIFY can deliver within 2 s).
    other = await buildTestApp({ config: { oyo360ChatEnabled: true, supportStaffToken: TOKEN } });
    clock += 120_000;
    const owner = await signInNewOwner(app);
    expect((await send(owner, { body: 'multi instance' })).statusCode).toBe(201);
    const conv = await conversationOf((c) => c.last_message?.body === 'multi instance');
    const stream = await openStream(owner);
    const res = await other.inject({
      method: 'POST',
      url: `${STAFF}/${conv.conversation_id}/messages`,
      headers: auth,
      payload: { body: 'from instance two' },
    });
    expect(res.statusCode).toBe(201);
    await stream.next((e) => e.data.includes('from instance two'), 2000);
    stream.close();
  });
});
