import type { OutboxEntry } from '../../schemas/generated/types';

/** A message to deliver: a one-time code by SMS or e-mail. `to` is E.164 (sms) or an address (email). */
export type OutgoingMessage = Omit<OutboxEntry, 'sent_at'>;

/** Delivers messages (DESIGN "bff/": messages behind a transport interface). Rejects when delivery fails. */
export interface MessageTransport {
  /** `dev` or `webhook`; the outbox route exists only for `dev`. */
  readonly kind: string;
  send(msg: OutgoingMessage): Promise<void>;
}

/** The development transport: logs each message and keeps the last `limit` in memory. */
export interface DevTransport extends MessageTransport {
  readonly kind: 'dev';
  /** Entries, newest first. */
  outbox(): OutboxEntry[];
}

/**
 * Creates the development transport. `print` receives each message (the server passes its logger so the
 * code shows in the console); `now` gives the time in ms. Keeps at most `limit` entries (default 200).
 */
export function createDevTransport(
  opts: { print?: (msg: OutgoingMessage) => void; now?: () => number; limit?: number } = {},
): DevTransport {
  const entries: OutboxEntry[] = [];
  const limit = opts.limit ?? 200;
  const now = opts.now ?? Date.now;
  return {
    kind: 'dev',
    async send(msg) {
      entries.unshift({ ...msg, sent_at: new Date(now()).toISOString() });
      if (entries.length > limit) entries.length = limit;
      opts.print?.(msg);
    },
    outbox: () => entries.map((e) => ({ ...e })),
  };
}

/**
 * Creates a transport that POSTs `{channel, to, text}` (and `subject` for an e-mail that has one) as JSON
 * to `url` (an SMS/e-mail gateway of your choice). Rejects on a network error or a non-2xx answer. The
 * code is not sent separately.
 */
export function createWebhookTransport(url: string, fetchImpl: typeof fetch = fetch): MessageTransport {
  return {
    kind: 'webhook',
    async send(msg) {
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          channel: msg.channel,
          to: msg.to,
          ...(msg.subject !== undefined ? { subject: msg.subject } : {}),
          text: msg.text,
        }),
        signal: AbortSignal.timeout(10000),
      });
      if (!res.ok) throw new Error(`message webhook answered ${res.status}`);
    },
  };
}

/** True for the development transport. */
export function isDevTransport(t: MessageTransport): t is DevTransport {
  return t.kind === 'dev' && typeof (t as DevTransport).outbox === 'function';
}
