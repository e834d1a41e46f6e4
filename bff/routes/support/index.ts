import type { OutgoingHttpHeaders } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {
  SendSupportMessageBody,
  SupportConversationParams,
  SupportConversationsQuery,
  SupportMessage,
  SupportMessagesQuery,
  SupportStreamQuery,
} from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import { sessionIdFromCookies } from '../../services/sessions';
import { errorResponses, ok, ref } from '../responses';
import { userOf } from '../signed-in';

const BASE = '/hms_ms/api/v1/onboard/support';
const STAFF = `${BASE}/staff/conversations`;

/** The browser reconnects this many ms after a dropped stream (the `retry:` field). */
export const STREAM_RETRY_MS = 3000;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * True when the request carries `Authorization: Bearer <token>` with the configured staff token. Both
 * sides are hashed to 32 bytes first, so the comparison takes the same time whatever the length or
 * content of the guess.
 */
export function staffTokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '');
  const given = match?.[1]?.trim() ?? '';
  return timingSafeEqual(sha256(given), sha256(token)) && given.length > 0;
}

/**
 * Turns query strings of whole numbers and of true/false into numbers and booleans before validation
 * (query strings are text; the project's ajv does not coerce). Anything else is left for the schema to refuse.
 */
function typedQuery(ints: readonly string[], bools: readonly string[] = []) {
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    for (const name of ints) {
      const v = query[name];
      if (typeof v === 'string' && /^\d{1,15}$/.test(v)) query[name] = Number(v);
    }
    for (const name of bools) {
      const v = query[name];
      if (v === 'true' || v === 'false') query[name] = v === 'true';
    }
  };
}

/** A server-sent event with id `message_id`, type `message` and the message as JSON data. */
function messageEvent(message: SupportMessage): string {
  return `id: ${message.message_id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/**
 * The support chat (issue 6 item 7). Owner routes need a session and `oyo_360_chat_enabled` (else 404
 * ONB_NOT_FOUND) and only ever see the signed-in owner's own conversation. Staff routes need
 * `Authorization: Bearer <SUPPORT_STAFF_TOKEN>` (401 ONB_STAFF_UNAUTHORIZED otherwise) and answer 404
 * when no token is configured.
 */
export default async function supportRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const owner = {
    tags: ['support'],
    security: [{ session: [] }],
    headers: ref('api/client-headers.schema.json'),
  };
  const staff = { tags: ['support'], security: [{ staffToken: [] }] };

  const chatEnabled = async () => {
    if (!config.oyo360ChatEnabled) throw onboardError('ONB_NOT_FOUND');
  };
  const staffOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!config.supportStaffToken) throw onboardError('ONB_NOT_FOUND');
    if (!staffTokenMatches(request.headers.authorization, config.supportStaffToken)) {
      reply.header('www-authenticate', 'Bearer realm="support"');
      throw onboardError('ONB_STAFF_UNAUTHORIZED');
    }
  };

  app.post<{ Body: SendSupportMessageBody }>(
    `${BASE}/messages`,
    {
      preHandler: chatEnabled,
      schema: {
        ...owner,
        operationId: 'sendSupportMessage',
        summary: "Write to support: a message in the signed-in owner's conversation",
        description: `The body is trimmed (blank: 400 ONB_SUPPORT_MESSAGE_EMPTY), at most 2000 characters (longer: 400 'Invalid Input'). At most SUPPORT_MESSAGES_PER_MINUTE (default 10) messages per owner per rolling minute: 429 ONB_SUPPORT_RATE_LIMITED with Retry-After. 201: stored and pushed to the owner's open streams; 200: the message stored earlier under this client_message_id. 404 when the chat is switched off (OYO_360_CHAT_ENABLED).`,
        body: ref('api/send-support-message.schema.json'),
        response: {
          200: ok(
            ref('api/support-message-result.schema.json'),
            'Stored earlier under this client_message_id',
          ),
          201: ok(ref('api/support-message-result.schema.json'), 'Stored'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      const { message, created } = await app.supportChat.send(
        user.id,
        request.body.body,
        request.body.client_message_id,
      );
      request.log.info({ userId: user.id, messageId: message.message_id, created }, 'support message sent');
      reply.code(created ? 201 : 200);
      return { success: true, data: { message } };
    },
  );

  app.get<{ Querystring: SupportMessagesQuery }>(
    `${BASE}/messages`,
    {
      preValidation: typedQuery(['before_id', 'limit']),
      preHandler: chatEnabled,
      schema: {
        ...owner,
        operationId: 'listSupportMessages',
        summary: "A page of the signed-in owner's support messages, oldest first",
        querystring: ref('api/support-messages-query.schema.json'),
        response: { 200: ok(ref('api/support-message-list.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await app.supportChat.list(userOf(request).id, {
        ...(request.query.before_id !== undefined ? { beforeId: request.query.before_id } : {}),
        ...(request.query.limit !== undefined ? { limit: request.query.limit } : {}),
      });
      reply.header('cache-control', 'no-store');
      return { success: true, data };
    },
  );

  app.get<{ Querystring: SupportStreamQuery }>(
    `${BASE}/messages/stream`,
    {
      preValidation: typedQuery(['after_id']),
      preHandler: chatEnabled,
      schema: {
        ...owner,
        operationId: 'streamSupportMessages',
        summary: "Server-sent events: new messages of the signed-in owner's conversation, live",
        description: `text/event-stream. Each message (the owner's and staff's) is an event \`message\` with \`id: <message_id>\` and the message as JSON data. First the messages after the Last-Event-ID header (an EventSource reconnecting) or else after the query's after_id are sent, so a reconnect loses nothing; without either, only messages stored from now on. A comment line (\`: heartbeat\`) every SUPPORT_STREAM_HEARTBEAT_MS (default 15000 ms); at each one the session is checked and, once it has ended (signed out or expired), an event \`session_ended\` is sent and the stream closes. \`retry: ${STREAM_RETRY_MS}\` sets the browser's reconnection delay. With PostgreSQL, messages stored through any server instance arrive (LISTEN/NOTIFY); with PGlite there is one instance.`,
        querystring: ref('api/support-stream-query.schema.json'),
        response: {
          200: {
            description: 'The event stream',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      const sessionId = sessionIdFromCookies(request.cookies);
      const header = request.headers['last-event-id'];
      const fromHeader =
        typeof header === 'string' && /^\d{1,15}$/.test(header.trim()) ? Number(header) : null;
      let lastId = fromHeader ?? request.query.after_id ?? (await app.supportChat.latestId(user.id));

      reply.hijack();
      const raw = reply.raw;
      // The security headers and the request id set by the hooks (helmet.ts): a hijacked answer copies them.
      raw.writeHead(200, {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        'x-request-id': request.id,
      });
      raw.write(`retry: ${STREAM_RETRY_MS}\n\n`);

      let ended = false;
      let pumping = false;
      let again = false;
      /** Sends every stored message after lastId; runs one at a time, again if asked meanwhile. */
      const pump = async (): Promise<void> => {
        if (pumping) {
          again = true;
          return;
        }
        pumping = true;
        try {
          do {
            again = false;
            for (;;) {
              if (ended) return;
              const batch = await app.supportChat.messagesAfter(user.id, lastId, 100);
              for (const m of batch) {
                if (ended) return;
                raw.write(messageEvent(m));
                lastId = m.message_id;
              }
              if (batch.length < 100) break;
            }
          } while (again);
        } catch (err) {
          request.log.warn({ err }, 'support stream read failed');
        } finally {
          pumping = false;
        }
      };

      const sessionAlive = async (): Promise<boolean> => {
        if (!sessionId) return false;
        const t = Date.now();
        const row = await app.db
          .selectFrom('sessions')
          .select(['expires_at', 'last_seen_at'])
          .where('id', '=', sessionId)
          .executeTakeFirst();
        return (
          !!row &&
          new Date(row.expires_at).getTime() > t &&
          new Date(row.last_seen_at).getTime() + config.sessionIdleMs > t
        );
      };

      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        unsubscribe();
        app.supportStreams.delete(end);
        raw.end();
      };
      const unsubscribe = app.supportBus.subscribe(user.id, () => void pump());
      const heartbeat = setInterval(() => {
        if (ended) return;
        raw.write(`: heartbeat ${Date.now()}\n\n`);
        sessionAlive()
          .then(async (alive) => {
            if (!alive) {
              if (!ended) raw.write('event: session_ended\ndata: {}\n\n');
              end();
              return;
            }
            // Catches up whatever a lost announcement left behind.
            await pump();
          })
          .catch((err: unknown) => request.log.warn({ err }, 'support stream session check failed'));
      }, config.supportStreamHeartbeatMs);
      app.supportStreams.add(end);
      raw.on('close', end);
      request.log.info({ userId: user.id, lastId }, 'support stream opened');
      await pump();
    },
  );

  app.get<{ Querystring: SupportConversationsQuery }>(
    STAFF,
    {
      config: { public: true },
      preValidation: typedQuery(['limit', 'offset'], ['awaiting_reply']),
      preHandler: staffOnly,
      schema: {
        ...staff,
        operationId: 'listSupportConversations',
        summary: 'Staff: support conversations, the most recently active first',
        description:
          'Authorization: Bearer <SUPPORT_STAFF_TOKEN>. 401 ONB_STAFF_UNAUTHORIZED without the right token; 404 when SUPPORT_STAFF_TOKEN is not set.',
        querystring: ref('api/support-conversations-query.schema.json'),
        response: { 200: ok(ref('api/support-conversation-list.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const data = await app.supportChat.conversations({
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
        ...(q.offset !== undefined ? { offset: q.offset } : {}),
        ...(q.awaiting_reply !== undefined ? { awaitingReply: q.awaiting_reply } : {}),
      });
      reply.header('cache-control', 'no-store');
      return { success: true, data };
    },
  );

  app.get<{ Params: SupportConversationParams; Querystring: SupportMessagesQuery }>(
    `${STAFF}/:conversation_id/messages`,
    {
      config: { public: true },
      preValidation: typedQuery(['before_id', 'limit']),
      preHandler: staffOnly,
      schema: {
        ...staff,
        operationId: 'listSupportConversationMessages',
        summary: 'Staff: a page of one conversation, oldest first',
        params: ref('api/support-conversation-params.schema.json'),
        querystring: ref('api/support-messages-query.schema.json'),
        response: { 200: ok(ref('api/support-message-list.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await app.supportChat.conversationMessages(request.params.conversation_id, {
        ...(request.query.before_id !== undefined ? { beforeId: request.query.before_id } : {}),
        ...(request.query.limit !== undefined ? { limit: request.query.limit } : {}),
      });
      reply.header('cache-control', 'no-store');
      return { success: true, data };
    },
  );

  app.post<{ Params: SupportConversationParams; Body: SendSupportMessageBody }>(
    `${STAFF}/:conversation_id/messages`,
    {
      config: { public: true },
      preHandler: staffOnly,
      schema: {
        ...staff,
        operationId: 'replySupportMessage',
        summary: "Staff: reply in a conversation; pushed live to the owner's open streams",
        description:
          'Same body rules as sendSupportMessage, without the rate limit. 201 stored; 200 stored earlier under this client_message_id; 404 ONB_SUPPORT_CONVERSATION_NOT_FOUND.',
        params: ref('api/support-conversation-params.schema.json'),
        body: ref('api/send-support-message.schema.json'),
        response: {
          200: ok(
            ref('api/support-message-result.schema.json'),
            'Stored earlier under this client_message_id',
          ),
          201: ok(ref('api/support-message-result.schema.json'), 'Stored'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { message, created } = await app.supportChat.reply(
        request.params.conversation_id,
        request.body.body,
        request.body.client_message_id,
      );
      request.log.info(
        { conversationId: request.params.conversation_id, messageId: message.message_id, created },
        'support reply sent',
      );
      reply.code(created ? 201 : 200);
      return { success: true, data: { message } };
    },
  );
}
