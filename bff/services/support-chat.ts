import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  SupportConversation,
  SupportConversationList,
  SupportMessage,
  SupportMessageList,
} from '../../schemas/generated/types';
import type { Database } from '../db';
import type { SupportMessageRow } from '../db/schema';
import { onboardError } from '../errors';
import type { SupportEventBus } from './support-events';

/** Longest message in characters (after trimming); the schema refuses longer bodies. */
export const SUPPORT_MESSAGE_MAX_CHARS = 2000;
/** Messages per page when the query names no limit. */
export const SUPPORT_PAGE_DEFAULT = 30;
/** The window of the per-owner send limit, in ms. */
export const SUPPORT_RATE_WINDOW_MS = 60_000;

/** Who wrote a message. */
export type SupportAuthor = SupportMessage['author'];

/** The support chat (issue 6 item 7): one conversation per owner, messages by the owner or by staff. */
export interface SupportChatService {
  /**
   * Stores a message of owner `userId` in their conversation (created on the first message) and announces
   * it on the bus. `body` is trimmed; a repeated `clientMessageId` answers the message stored the first
   * time with `created: false`. Throws ONB_SUPPORT_MESSAGE_EMPTY (blank body) and ONB_SUPPORT_RATE_LIMITED
   * (more than `messagesPerMinute` owner messages in the last 60 s; `retryAfterS` set).
   */
  send(
    userId: string,
    body: string,
    clientMessageId?: string,
  ): Promise<{ message: SupportMessage; created: boolean }>;
  /**
   * A page of the owner's messages, oldest first (see api/support-messages-query.schema.json); an owner
   * who never wrote has an empty page.
   */
  list(userId: string, query: { beforeId?: number; limit?: number }): Promise<SupportMessageList>;
  /** The owner's messages with an id above `afterId`, oldest first, at most `limit` (default 100). */
  messagesAfter(userId: string, afterId: number, limit?: number): Promise<SupportMessage[]>;
  /** The id of the owner's newest message, 0 when there is none. */
  latestId(userId: string): Promise<number>;
  /** Staff: conversations, the most recently active first. */
  conversations(query: {
    limit?: number;
    offset?: number;
    awaitingReply?: boolean;
  }): Promise<SupportConversationList>;
  /** Staff: a page of one conversation. Throws ONB_SUPPORT_CONVERSATION_NOT_FOUND. */
  conversationMessages(
    conversationId: string,
    query: { beforeId?: number; limit?: number },
  ): Promise<SupportMessageList>;
  /**
   * Staff: stores a reply in a conversation and announces it. Same trimming and idempotency as
   * {@link send}; no rate limit. Throws ONB_SUPPORT_CONVERSATION_NOT_FOUND, ONB_SUPPORT_MESSAGE_EMPTY.
   */
  reply(
    conversationId: string,
    body: string,
    clientMessageId?: string,
  ): Promise<{ message: SupportMessage; created: boolean }>;
}

/** The wire shape of a row. */
export function toSupportMessage(row: SupportMessageRow): SupportMessage {
  return {
    message_id: Number(row.id),
    author: row.author,
    body: row.body,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** Options of {@link createSupportChatService}. */
export interface SupportChatOptions {
  bus: SupportEventBus;
  /** Owner messages per rolling minute (config SUPPORT_MESSAGES_PER_MINUTE). */
  messagesPerMinute: number;
  /** Clock in ms since the epoch. */
  now: () => number;
}

/** Creates the service over `db`. */
export function createSupportChatService(db: Kysely<Database>, opts: SupportChatOptions): SupportChatService {
  const { bus, now } = opts;

  function cleanBody(body: string): string {
    const text = body.trim();
    if (!text) throw onboardError('ONB_SUPPORT_MESSAGE_EMPTY');
    return text.slice(0, SUPPORT_MESSAGE_MAX_CHARS);
  }

  async function conversationOf(userId: string): Promise<string | null> {
    const row = await db
      .selectFrom('support_conversations')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  async function ensureConversation(userId: string): Promise<string> {
    await db
      .insertInto('support_conversations')
      .values({
        id: randomUUID(),
        user_id: userId,
        created_at: new Date(now()),
        last_message_at: new Date(now()),
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const id = await conversationOf(userId);
    if (!id) throw new Error('support conversation vanished');
    return id;
  }

  /**
   * Inserts a message. The conversation row is locked first (UPDATE … last_message_at), so the messages of
   * one conversation commit in the order of their ids: a stream that sent id n never later misses an id
   * below n.
   */
  async function insert(
    conversationId: string,
    author: SupportAuthor,
    body: string,
    clientMessageId: string | undefined,
    check?: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<{ row: SupportMessageRow; created: boolean }> {
    return db.transaction().execute(async (trx) => {
      const at = new Date(now());
      await trx
        .updateTable('support_conversations')
        .set({ last_message_at: at })
        .where('id', '=', conversationId)
        .execute();
      if (clientMessageId) {
        const earlier = await trx
          .selectFrom('support_messages')
          .selectAll()
          .where('conversation_id', '=', conversationId)
          .where('client_message_id', '=', clientMessageId)
          .executeTakeFirst();
        if (earlier) return { row: earlier, created: false };
      }
      if (check) await check(trx);
      const row = await trx
        .insertInto('support_messages')
        .values({
          conversation_id: conversationId,
          author,
          body,
          client_message_id: clientMessageId ?? null,
          created_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row, created: true };
    });
  }

  async function page(
    conversationId: string | null,
    query: { beforeId?: number; limit?: number },
  ): Promise<SupportMessageList> {
    if (!conversationId) return { messages: [], has_more: false };
    const limit = query.limit ?? SUPPORT_PAGE_DEFAULT;
    let q = db
      .selectFrom('support_messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .orderBy('id', 'desc')
      .limit(limit + 1);
    if (query.beforeId !== undefined) q = q.where('id', '<', query.beforeId);
    const rows = await q.execute();
    return {
      messages: rows.slice(0, limit).reverse().map(toSupportMessage),
      has_more: rows.length > limit,
    };
  }

  async function announce(userId: string): Promise<void> {
    // The message is stored; a failed announcement only delays it until the stream's next heartbeat read.
    await bus.publish(userId).catch(() => {});
  }

  return {
    async send(userId, body, clientMessageId) {
      const text = cleanBody(body);
      const conversationId = await ensureConversation(userId);
      const { row, created } = await insert(conversationId, 'owner', text, clientMessageId, async (trx) => {
        const since = new Date(now() - SUPPORT_RATE_WINDOW_MS);
        const recent = await trx
          .selectFrom('support_messages')
          .select('created_at')
          .where('conversation_id', '=', conversationId)
          .where('author', '=', 'owner')
          .where('created_at', '>', since)
          .orderBy('created_at', 'desc')
          .limit(opts.messagesPerMinute)
          .execute();
        if (recent.length >= opts.messagesPerMinute) {
          const oldest = new Date(recent[recent.length - 1]!.created_at).getTime();
          const seconds = Math.max(1, Math.ceil((oldest + SUPPORT_RATE_WINDOW_MS - now()) / 1000));
          throw onboardError('ONB_SUPPORT_RATE_LIMITED', { values: { seconds }, retryAfterS: seconds });
        }
      });
      if (created) await announce(userId);
      return { message: toSupportMessage(row), created };
    },

    async list(userId, query) {
      return page(await conversationOf(userId), query);
    },

    async messagesAfter(userId, afterId, limit = 100) {
      const rows = await db
        .selectFrom('support_messages')
        .innerJoin('support_conversations', 'support_conversations.id', 'support_messages.conversation_id')
        .selectAll('support_messages')
        .where('support_conversations.user_id', '=', userId)
        .where('support_messages.id', '>', afterId)
        .orderBy('support_messages.id', 'asc')
        .limit(limit)
        .execute();
      return rows.map(toSupportMessage);
    },

    async latestId(userId) {
      const row = await db
        .selectFrom('support_messages')
        .innerJoin('support_conversations', 'support_conversations.id', 'support_messages.conversation_id')
        .select((eb) => eb.fn.max('support_messages.id').as('max_id'))
        .where('support_conversations.user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.max_id ?? 0);
    },

    async conversations(query) {
      const limit = query.limit ?? SUPPORT_PAGE_DEFAULT;
      const offset = query.offset ?? 0;
      let q = db
        .selectFrom('support_conversations as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .leftJoin('support_messages as m', (join) =>
          join.onRef('m.conversation_id', '=', 'c.id').on((eb) =>
            eb(
              'm.id',
              '=',
              eb
                .selectFrom('support_messages as m2')
                .select((e) => e.fn.max('m2.id').as('max_id'))
                .whereRef('m2.conversation_id', '=', 'c.id'),
            ),
          ),
        )
        .select([
          'c.id as conversation_id',
          'c.user_id',
          'u.phone',
          'c.created_at',
          'c.last_message_at',
          'm.id as m_id',
          'm.author as m_author',
          'm.body as m_body',
          'm.created_at as m_created_at',
        ])
        .orderBy('c.last_message_at', 'desc')
        .orderBy('c.id')
        .limit(limit + 1)
        .offset(offset);
      if (query.awaitingReply) q = q.where('m.author', '=', 'owner');
      const rows = await q.execute();
      const conversations: SupportConversation[] = rows.slice(0, limit).map((r) => ({
        conversation_id: r.conversation_id,
        user_id: r.user_id,
        phone: r.phone,
        created_at: new Date(r.created_at).toISOString(),
        last_message_at: new Date(r.last_message_at).toISOString(),
        last_message:
          r.m_id === null || r.m_author === null || r.m_body === null || r.m_created_at === null
            ? null
            : toSupportMessage({
                id: r.m_id,
                conversation_id: r.conversation_id,
                author: r.m_author,
                body: r.m_body,
                client_message_id: null,
                created_at: r.m_created_at,
              }),
        awaiting_reply: r.m_author === 'owner',
      }));
      return { conversations, has_more: rows.length > limit };
    },

    async conversationMessages(conversationId, query) {
      const exists = await db
        .selectFrom('support_conversations')
        .select('id')
        .where('id', '=', conversationId)
        .executeTakeFirst();
      if (!exists) throw onboardError('ONB_SUPPORT_CONVERSATION_NOT_FOUND');
      return page(conversationId, query);
    },

    async reply(conversationId, body, clientMessageId) {
      const text = cleanBody(body);
      const conversation = await db
        .selectFrom('support_conversations')
        .select(['id', 'user_id'])
        .where('id', '=', conversationId)
        .executeTakeFirst();
      if (!conversation) throw onboardError('ONB_SUPPORT_CONVERSATION_NOT_FOUND');
      const { row, created } = await insert(conversationId, 'staff', text, clientMessageId);
      if (created) await announce(conversation.user_id);
      return { message: toSupportMessage(row), created };
    },
  };
}
