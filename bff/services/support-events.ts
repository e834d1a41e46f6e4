import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import type { Client } from 'pg';
import type { Database } from '../db';

/** The PostgreSQL NOTIFY channel of the support chat; the payload is the owner's user id. */
export const SUPPORT_CHANNEL = 'support_chat';

/**
 * Tells open support-chat streams that a conversation has new messages. A notification carries only
 * the owner's user id: a stream then reads the messages after the last id it sent from the database, so
 * a lost or duplicated notification never loses or repeats a message.
 */
export interface SupportEventBus {
  /** Announces new messages in the conversation of owner `userId` (call after the insert committed). */
  publish(userId: string): Promise<void>;
  /**
   * Calls `listener` on every announcement for `userId`, and also after the bus reconnected (anything may
   * have been missed meanwhile). Returns the function that stops listening.
   */
  subscribe(userId: string, listener: () => void): () => void;
  /** Stops listening (closes the LISTEN connection of the PostgreSQL bus). */
  close(): Promise<void>;
}

/** Listeners by user id, and a `*` event for "re-read everything" after a reconnect. */
function createListeners() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit: (userId: string) => emitter.emit(`u:${userId}`),
    emitAll: () => emitter.emit('*'),
    subscribe(userId: string, listener: () => void) {
      emitter.on(`u:${userId}`, listener);
      emitter.on('*', listener);
      return () => {
        emitter.off(`u:${userId}`, listener);
        emitter.off('*', listener);
      };
    },
  };
}

/**
 * The bus of a single process (PGlite: one server process owns the data folder). Announcements reach only
 * the streams of this process.
 */
export function createInProcessBus(): SupportEventBus {
  const listeners = createListeners();
  return {
    publish: async (userId) => {
      listeners.emit(userId);
    },
    subscribe: (userId, listener) => listeners.subscribe(userId, listener),
    close: async () => {},
  };
}

/**
 * The bus of several server instances over one PostgreSQL database: `publish` runs
 * `pg_notify('support_chat', userId)` through the pool; each instance holds one dedicated connection that
 * runs `LISTEN support_chat` and hands announcements to its own streams. When that connection fails it is
 * opened again after `reconnectMs` (default 1000) and every stream re-reads the database.
 * `start()` resolves once listening. Errors are reported to `onError` (the app's logger).
 */
export function createPostgresBus(
  db: Kysely<Database>,
  url: string,
  opts: { reconnectMs?: number; onError?: (err: unknown) => void } = {},
): SupportEventBus & { start(): Promise<void> } {
  const listeners = createListeners();
  const reconnectMs = opts.reconnectMs ?? 1000;
  let client: Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    // pg loads with the bus, on PostgreSQL only (issue 13 item 5).
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (msg) => {
      if (msg.channel === SUPPORT_CHANNEL && msg.payload) listeners.emit(msg.payload);
    });
    c.on('error', (err) => {
      opts.onError?.(err);
      retry(c);
    });
    c.on('end', () => retry(c));
    await c.connect();
    await c.query(`LISTEN ${SUPPORT_CHANNEL}`);
    client = c;
  }

  function reconnectLater() {
    if (closed) return;
    timer = setTimeout(() => {
      connect()
        .then(() => listeners.emitAll())
        .catch((err: unknown) => {
          opts.onError?.(err);
          reconnectLater();
        });
    }, reconnectMs);
    timer.unref();
  }

  function retry(c: Client) {
    if (closed || client !== c) return;
    client = null;
    reconnectLater();
  }

  return {
    start: connect,
    publish: async (userId) => {
      await sql`select pg_notify(${SUPPORT_CHANNEL}, ${userId})`.execute(db);
    },
    subscribe: (userId, listener) => listeners.subscribe(userId, listener),
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}
