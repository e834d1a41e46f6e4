import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { sql, type Kysely } from 'kysely';
import type { Locale } from '../../schemas/generated/types';
import type { Database } from '../db';
import { LEAD_STATUS_IN_PROGRESS } from './leads';
import { fallbackLocale, isLocale } from './translations';
import { onFirstUse } from '../on-first-use';

/** web-push (VAPID signing and payload encryption), loaded with the first reminder sent (issue 13 item 5). */
const loadWebPush = onFirstUse(async () => (await import('web-push')).default);

/** The app's checklist page: a reminder's tap opens it for the property (SPEC §2 propertyOnboardTaskScreen). */
export const CHECKLIST_PATH = '/propertyOnboard/task';

/** How long a push service keeps an undelivered reminder (TTL header, seconds): one day. */
export const REMINDER_TTL_S = 24 * 3600;

/** How long one request to a push service may take before it counts as failed (ms). */
const PUSH_TIMEOUT_MS = 10_000;

/** A browser's PushSubscription as the client sends it (PushSubscription.toJSON()). */
export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * What a reminder carries to the service worker (JSON, encrypted aes128gcm, RFC 8291): the notification's
 * `title` and `body` in the owner's language, `lang`, a `tag` (one reminder per property replaces the last)
 * and the `url` a tap opens: `/propertyOnboard/task?property_unique_id=…`.
 */
export interface ReminderPayload {
  title: string;
  body: string;
  lang: Locale;
  tag: string;
  url: string;
}

/** An owner a reminder is due for, with the property it is about. */
export interface DueReminder {
  userId: string;
  language: string;
  propertyUniqueId: string;
  title: string;
  /** When the owner was last reminded; null: never. */
  lastSentAt: Date | null;
}

/** The result of one reminder to one owner. */
export interface ReminderOutcome {
  userId: string;
  /** Subscriptions the push service accepted (2xx). */
  delivered: number;
  /** Subscriptions removed because the push service answered 404 or 410 (expired, unsubscribed). */
  expired: number;
  /** Subscriptions that failed otherwise (network, 5xx, 429 …); kept. */
  failed: number;
}

/** Options of {@link createReminders}. Durations in ms. */
export interface RemindersOptions {
  db: Kysely<Database>;
  /** The VAPID key pair and subject (Config `vapid`); null: reminders are off. */
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  /** Hosts of accepted push services (Config `pushServiceHosts`). */
  pushServiceHosts: readonly string[];
  /** No progress on the listing for this long makes a reminder due (REMINDER_AFTER_MS). */
  afterMs: number;
  /** At most one reminder per owner per this period (REMINDER_PERIOD_MS). */
  periodMs: number;
  translate(locale: Locale, key: string, values?: Record<string, unknown>): string;
  now: () => number;
  /** Sends one HTTP request; default the global fetch (tests may wrap it). */
  fetch?: typeof fetch;
  onError?: (err: unknown, context: Record<string, unknown>) => void;
}

/** Reminders by web push (issue 15 item 5): subscriptions per owner and the reminder job's steps. */
export interface Reminders {
  /** Whether VAPID keys are configured; off: the routes answer so and nothing is sent. */
  readonly enabled: boolean;
  /** The VAPID public key for `pushManager.subscribe({ applicationServerKey })`; null when off. */
  readonly publicKey: string | null;
  /** Whether the server would send to this endpoint (https, or loopback http, on an accepted host). */
  acceptsEndpoint(endpoint: string): boolean;
  /**
   * Stores the subscription for `userId` (insert, or update its keys). An endpoint held by another user
   * moves to this one: the endpoint is the browser's secret capability, and that browser is now signed in
   * as `userId`, so the previous owner's reminders must not appear on it.
   */
  saveSubscription(userId: string, sub: PushSubscriptionInput): Promise<void>;
  /** Deletes the user's subscription with this endpoint; false when the user has none with it. */
  deleteSubscription(userId: string, endpoint: string): Promise<boolean>;
  /** Owners a reminder is due for at `now` (see {@link createReminders}), at most `limit`. */
  findDue(limit?: number): Promise<DueReminder[]>;
  /**
   * Sends the reminder to one owner if still due: claims the period in `push_reminders` (one statement, so
   * two workers never both send), sends to each subscription, deletes the expired ones (404/410). When no
   * subscription took it and some failed for another reason, the claim is given back and this throws, so a
   * job queue retries. Null when the owner is no longer due.
   */
  remind(userId: string): Promise<ReminderOutcome | null>;
  /** One round: every due owner reminded in turn (the in-process scheduler's step). */
  runRound(): Promise<ReminderOutcome[]>;
}

/** Whether `host` (lower case) is `allowed` or one of its subdomains. */
function hostMatches(host: string, allowed: string): boolean {
  return host === allowed || host.endsWith(`.${allowed}`);
}

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.'));
}

/**
 * The reminder service. A reminder is due for an owner who has at least one subscription and an unpublished
 * lead in progress (status IN_PROGRESS), whose most recently changed such lead was last changed (`leads.updated_at`,
 * which every section save moves) at least `afterMs` ago, and who was not reminded in the last `periodMs`
 * (SPEC §9 web push; issue 15 item 5). The reminder is about that lead, in the owner's language
 * (`users.language`, en-GB when it is not one of the 19).
 */
export function createReminders(opts: RemindersOptions): Reminders {
  const { db, vapid, now } = opts;
  const send = opts.fetch ?? fetch;

  function acceptsEndpoint(endpoint: string): boolean {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return false;
    }
    const host = url.hostname.toLowerCase();
    if (url.username || url.password) return false;
    if (!opts.pushServiceHosts.some((allowed) => hostMatches(host, allowed))) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(host));
  }

  async function saveSubscription(userId: string, sub: PushSubscriptionInput): Promise<void> {
    const at = new Date(now());
    await db
      .insertInto('push_subscriptions')
      .values({
        id: randomUUID(),
        user_id: userId,
        endpoint: sub.endpoint,
        p256dh: sub.keys.p256dh,
        auth: sub.keys.auth,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.column('endpoint').doUpdateSet({
          user_id: userId,
          p256dh: sub.keys.p256dh,
          auth: sub.keys.auth,
          updated_at: at,
        }),
      )
      .execute();
  }

  async function deleteSubscription(userId: string, endpoint: string): Promise<boolean> {
    const result = await db
      .deleteFrom('push_subscriptions')
      .where('user_id', '=', userId)
      .where('endpoint', '=', endpoint)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async function findDue(limit = 500, onlyUser?: string): Promise<DueReminder[]> {
    const t = now();
    const quietSince = new Date(t - opts.afterMs);
    const periodStart = new Date(t - opts.periodMs);
    // The newest unpublished lead in progress of each owner with a subscription, then those quiet long enough.
    const newest = db
      .selectFrom('leads as l')
      .innerJoin('users as u', 'u.id', 'l.user_id')
      .leftJoin('push_reminders as r', 'r.user_id', 'l.user_id')
      .select([
        'l.user_id',
        'u.language',
        'l.property_unique_id',
        'l.title',
        'l.updated_at',
        'r.last_sent_at',
      ])
      .distinctOn('l.user_id')
      .where('l.status', '=', LEAD_STATUS_IN_PROGRESS)
      .where('l.published_at', 'is', null)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('push_subscriptions as s')
            .select(sql`1`.as('one'))
            .whereRef('s.user_id', '=', 'l.user_id'),
        ),
      )
      .where((eb) => eb.or([eb('r.last_sent_at', 'is', null), eb('r.last_sent_at', '<=', periodStart)]))
      .$if(onlyUser !== undefined, (q) => q.where('l.user_id', '=', onlyUser ?? ''))
      .orderBy('l.user_id')
      .orderBy('l.updated_at', 'desc');
    const rows = await db
      .selectFrom(newest.as('n'))
      .selectAll()
      .where('n.updated_at', '<=', quietSince)
      .orderBy('n.updated_at')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      userId: r.user_id,
      language: r.language,
      propertyUniqueId: r.property_unique_id,
      title: r.title,
      lastSentAt: r.last_sent_at ? new Date(r.last_sent_at) : null,
    }));
  }

  function payloadFor(due: DueReminder): ReminderPayload {
    const lang: Locale = isLocale(due.language) ? due.language : fallbackLocale;
    return {
      title: opts.translate(lang, 'shell.reminders.push_title', { title: due.title }),
      body: opts.translate(lang, 'shell.reminders.push_body'),
      lang,
      tag: `reminder-${due.propertyUniqueId}`,
      url: `${CHECKLIST_PATH}?property_unique_id=${encodeURIComponent(due.propertyUniqueId)}`,
    };
  }

  /** Claims this period for the owner: true when no other worker has reminded them since `periodStart`. */
  async function claim(due: DueReminder, at: Date): Promise<boolean> {
    const periodStart = new Date(at.getTime() - opts.periodMs);
    const claimed = await db
      .insertInto('push_reminders')
      .values({ user_id: due.userId, last_sent_at: at, property_unique_id: due.propertyUniqueId })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ last_sent_at: at, property_unique_id: due.propertyUniqueId })
          .where('push_reminders.last_sent_at', '<=', periodStart),
      )
      .returning('user_id')
      .executeTakeFirst();
    return claimed !== undefined;
  }

  async function release(due: DueReminder, at: Date): Promise<void> {
    const q = due.lastSentAt
      ? db
          .updateTable('push_reminders')
          .set({ last_sent_at: due.lastSentAt })
          .where('user_id', '=', due.userId)
          .where('last_sent_at', '=', at)
      : db.deleteFrom('push_reminders').where('user_id', '=', due.userId).where('last_sent_at', '=', at);
    await q.execute();
  }

  /** POSTs the encrypted payload to one subscription; the push service's status, or 0 without an answer. */
  async function push(
    sub: { endpoint: string; p256dh: string; auth: string },
    payload: ReminderPayload,
  ): Promise<number> {
    if (!vapid) return 0;
    try {
      const details = (await loadWebPush()).generateRequestDetails(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        JSON.stringify(payload),
        { vapidDetails: vapid, TTL: REMINDER_TTL_S, urgency: 'normal', contentEncoding: 'aes128gcm' },
      );
      const res = await send(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: new Uint8Array(details.body),
        redirect: 'error',
        signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
      });
      await res.body?.cancel();
      return res.status;
    } catch (err) {
      opts.onError?.(err, { endpointHost: new URL(sub.endpoint).host });
      return 0;
    }
  }

  async function remind(userId: string): Promise<ReminderOutcome | null> {
    if (!vapid) return null;
    const [due] = await findDue(1, userId);
    if (!due) return null;
    const at = new Date(now());
    if (!(await claim(due, at))) return null;
    const subs = await db
      .selectFrom('push_subscriptions')
      .select(['id', 'endpoint', 'p256dh', 'auth'])
      .where('user_id', '=', userId)
      .execute();
    const payload = payloadFor(due);
    const outcome: ReminderOutcome = { userId, delivered: 0, expired: 0, failed: 0 };
    for (const sub of subs) {
      if (!acceptsEndpoint(sub.endpoint)) {
        outcome.failed += 1;
        continue;
      }
      const status = await push(sub, payload);
      if (status >= 200 && status < 300) outcome.delivered += 1;
      else if (status === 404 || status === 410) {
        await db.deleteFrom('push_subscriptions').where('id', '=', sub.id).execute();
        outcome.expired += 1;
      } else {
        if (status !== 0) opts.onError?.(new Error(`push service answered ${status}`), { userId });
        outcome.failed += 1;
      }
    }
    if (outcome.delivered === 0 && outcome.failed > 0) {
      await release(due, at);
      throw new Error(`reminder to ${userId} not delivered (${outcome.failed} failed)`);
    }
    return outcome;
  }

  async function runRound(): Promise<ReminderOutcome[]> {
    if (!vapid) return [];
    const outcomes: ReminderOutcome[] = [];
    for (const due of await findDue()) {
      try {
        const outcome = await remind(due.userId);
        if (outcome) outcomes.push(outcome);
      } catch (err) {
        opts.onError?.(err, { userId: due.userId });
      }
    }
    return outcomes;
  }

  return {
    enabled: vapid !== null,
    publicKey: vapid?.publicKey ?? null,
    acceptsEndpoint,
    saveSubscription,
    deleteSubscription,
    findDue: (limit) => findDue(limit),
    remind,
    runRound,
  };
}
