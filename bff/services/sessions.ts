import { hash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Lead } from '../../schemas/generated/types';
import { preparedQuery } from '../db/prepared';
import { leadFromJson, newestOpenLeadJson } from './leads';
import type { Database, UserRow, UsersTable } from '../db/schema';

/** Name of the HttpOnly session cookie (shared context "Sessions"). */
export const SESSION_COOKIE = 'onboard_sid';
/** Name of the readable cookie the client checks (SPEC §4: login cookie equals "true"). */
export const LOGGED_IN_COOKIE = 'isLoggedIn';

/** Hex SHA-256 of a token: the `sessions.id` (a stolen database row does not give a usable cookie). */
export function hashToken(token: string): string {
  // One call, no Hash object: a signed-in request hashes its token at least once (issue 13 item 6).
  return hash('sha256', token, 'hex');
}

/**
 * `sessions.id` of the session whose token the request's cookies carry (`onboard_sid`), or null without
 * one. Does not check that the session is live (the authentication gate does, before every handler).
 */
export function sessionIdFromCookies(cookies: Record<string, string | undefined>): string | null {
  const token = cookies[SESSION_COOKIE];
  return token ? hashToken(token) : null;
}

/** Server-side sessions with idle and absolute expiry. Times are ms since the epoch. */
export interface SessionStore {
  /** Starts a session for `userId`; returns the random token to put in the cookie (base64url, 256 bits). */
  create(userId: string, meta: { userAgent?: string | null; ip?: string | null }): Promise<string>;
  /**
   * The user of a live session, or null when the token is unknown, idle longer than the idle limit, or
   * past its absolute end (expired rows are deleted). Refreshes `last_seen_at` at most once a minute.
   */
  resolve(token: string): Promise<UserRow | null>;
  /**
   * {@link SessionStore.resolve}, with the user's newest open lead (`leads.newestOpen`) read in the same
   * statement (issue 13 item 6: one round trip for a signed-in screen's session and lead).
   */
  resolveWithNewestOpenLead(token: string): Promise<{ user: UserRow; lead: Lead | null } | null>;
  /** Ends the session of `token` (no error when there is none). */
  destroy(token: string): Promise<void>;
  /**
   * Ends every session of `userId` on every device (SPEC §4: changing the password logs the user out of
   * all devices); returns how many ended.
   */
  destroyAllOf(userId: string): Promise<number>;
  /** Deletes every expired session; returns how many. */
  purgeExpired(): Promise<number>;
}

/** Every column of `users`, named (a prepared statement must not say `*`: db/prepared.ts). */
const USER_COLUMNS = Object.keys({
  id: true,
  phone: true,
  country_code: true,
  email: true,
  team: true,
  email_verified_at: true,
  password_hash: true,
  language: true,
  devise_role: true,
  utm: true,
  created_at: true,
} satisfies Record<keyof UsersTable, true>) as (keyof UsersTable)[];

/** The placeholder of the session id in the prepared session query. */
const SESSION_ID = '\u0000session_id';

/** Creates the store. `idleMs` and `absoluteMs` as in the configuration; `now` for tests. */
export function createSessionStore(
  db: Kysely<Database>,
  opts: { idleMs: number; absoluteMs: number; now?: () => number },
): SessionStore {
  const now = opts.now ?? Date.now;
  // Every signed-in request runs it: compiled once, prepared on PostgreSQL (issue 13 item 6).
  const sessionWithUser = preparedQuery(
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(USER_COLUMNS.map((c) => `users.${c}` as const))
      .select(['sessions.last_seen_at as s_last_seen_at', 'sessions.expires_at as s_expires_at'])
      .where('sessions.id', '=', SESSION_ID)
      .compile(),
    [SESSION_ID],
  );
  const sessionWithUserAndLead = preparedQuery(
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(USER_COLUMNS.map((c) => `users.${c}` as const))
      .select(['sessions.last_seen_at as s_last_seen_at', 'sessions.expires_at as s_expires_at'])
      .select((eb) => newestOpenLeadJson(eb).as('newest_lead'))
      .where('sessions.id', '=', SESSION_ID)
      .compile(),
    [SESSION_ID],
  );
  /**
   * Whether the session `id` read as `row` is live; an expired one is deleted, a live one's `last_seen_at`
   * refreshed when over a minute old.
   */
  const live = async (
    id: string,
    row: { s_last_seen_at: Date | string; s_expires_at: Date | string },
  ): Promise<boolean> => {
    const t = now();
    const lastSeen = new Date(row.s_last_seen_at).getTime();
    if (new Date(row.s_expires_at).getTime() <= t || lastSeen + opts.idleMs <= t) {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
      return false;
    }
    if (t - lastSeen > 60_000) {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: new Date(t) })
        .where('id', '=', id)
        .execute();
    }
    return true;
  };
  return {
    async create(userId, meta) {
      const token = randomBytes(32).toString('base64url');
      const t = now();
      await db
        .insertInto('sessions')
        .values({
          id: hashToken(token),
          user_id: userId,
          created_at: new Date(t),
          last_seen_at: new Date(t),
          expires_at: new Date(t + opts.absoluteMs),
          user_agent: meta.userAgent?.slice(0, 512) ?? null,
          ip: meta.ip ?? null,
        })
        .execute();
      return token;
    },
    async resolve(token) {
      if (!token || token.length > 200) return null;
      const id = hashToken(token);
      const [row] = (await db.executeQuery(sessionWithUser(id))).rows;
      if (!row || !(await live(id, row))) return null;
      const { s_last_seen_at: _a, s_expires_at: _b, ...user } = row;
      return user;
    },
    async resolveWithNewestOpenLead(token) {
      if (!token || token.length > 200) return null;
      const id = hashToken(token);
      const [row] = (await db.executeQuery(sessionWithUserAndLead(id))).rows;
      if (!row || !(await live(id, row))) return null;
      const { s_last_seen_at: _a, s_expires_at: _b, newest_lead: lead, ...user } = row;
      return { user, lead: leadFromJson(lead) };
    },
    async destroy(token) {
      if (!token) return;
      await db.deleteFrom('sessions').where('id', '=', hashToken(token)).execute();
    },
    async destroyAllOf(userId) {
      const res = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
    async purgeExpired() {
      const t = now();
      const res = await db
        .deleteFrom('sessions')
        .where((eb) =>
          eb.or([eb('expires_at', '<=', new Date(t)), eb('last_seen_at', '<=', new Date(t - opts.idleMs))]),
        )
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
