import { createHash, randomBytes } from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { onboardError } from '../errors';

/**
 * argon2id with the OWASP Password Storage Cheat Sheet's first choice: 19 MiB of memory (m=19456 KiB), two
 * passes (t=2), one lane (p=1). The PHC string keeps the parameters, so stronger ones later still verify
 * old hashes.
 */
export const ARGON2_OPTIONS: Options = {
  algorithm: 2 /* Argon2id */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

/** Shortest password (SPEC §5, §9: 'password minimum 8 characters'). */
export const PASSWORD_MIN_LENGTH = 8;
/** Longest password accepted (characters): keeps hashing bounded. */
export const PASSWORD_MAX_LENGTH = 128;
/** A forgot-password link works this long after it is sent (ms): 30 minutes (issue 11). */
export const RESET_TOKEN_TTL_MS = 30 * 60_000;

const common = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/**
 * True when `password` is a common password of the list of @zxcvbn-ts/language-common (NIST SP 800-63B
 * 'passwords obtained from previous breach corpuses'), in any case, also once the digits and symbols
 * added at its ends to meet the composition rules are taken off ('Password1!' is 'password').
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const candidates = [lower, lower.replace(/[^\p{L}]+$/u, ''), lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')];
  return candidates.some((c) => c.length > 0 && common.has(c));
}

/**
 * True when `password` follows SPEC §5: at least 8 characters (at most 128), a number, a symbol (anything
 * that is neither a letter nor a digit), a lower-case and an upper-case letter.
 */
export function meetsPasswordRules(password: string): boolean {
  const length = [...password].length;
  return (
    length >= PASSWORD_MIN_LENGTH &&
    length <= PASSWORD_MAX_LENGTH &&
    /\p{Nd}/u.test(password) &&
    /[^\p{L}\p{Nd}]/u.test(password) &&
    /\p{Ll}/u.test(password) &&
    /\p{Lu}/u.test(password)
  );
}

/**
 * Checks a new password and its confirmation: SPEC §5 rules → ONB_PASSWORD_RULES ('Please enter the
 * correct password'), a common password → ONB_PASSWORD_COMMON, a confirmation that differs →
 * ONB_PASSWORD_MISMATCH ('Password is not matched!'). Throws the first that applies.
 */
export function assertNewPassword(password: string, confirmation: string): void {
  if (!meetsPasswordRules(password)) throw onboardError('ONB_PASSWORD_RULES');
  if (isCommonPassword(password)) throw onboardError('ONB_PASSWORD_COMMON');
  if (password !== confirmation) throw onboardError('ONB_PASSWORD_MISMATCH');
}

/** The argon2id PHC string of `password` ({@link ARGON2_OPTIONS}). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

// Verified for accounts without a password, so an unknown address costs the same time as a wrong password.
let dummyHash: Promise<string> | null = null;

/**
 * True when `password` matches `passwordHash`. With `passwordHash` null (unknown account, or no password)
 * a dummy hash of the same parameters is verified and false returned, so both take the same time.
 */
export async function checkPassword(passwordHash: string | null, password: string): Promise<boolean> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  const target = passwordHash ?? (await dummyHash);
  const matches = await verify(target, password).catch(() => false);
  return passwordHash !== null && matches;
}

/** Hex SHA-256 of a reset token: the stored id. */
const tokenId = (token: string) => createHash('sha256').update(token).digest('hex');

/** Forgot-password links: tokens stored hashed, single use, expiring. Times in ms since the epoch. */
export interface ResetTokenStore {
  /** A new token for `userId` (base64url, 256 bits) valid {@link RESET_TOKEN_TTL_MS}. */
  create(userId: string): Promise<string>;
  /**
   * Uses `token`: the user id when it is known, unused and not expired (it is then used up, in one
   * conditional update, so two concurrent uses cannot both succeed), else null.
   */
  consume(token: string): Promise<string | null>;
  /** How many tokens were made for `userId` since `since` (limits the links sent per hour). */
  countSince(userId: string, since: Date): Promise<number>;
  /** Voids every unused token of `userId` (after any password change). */
  voidAll(userId: string): Promise<void>;
}

/** Creates the store over `db`; `now` for tests. */
export function createResetTokenStore(db: Kysely<Database>, now: () => number = Date.now): ResetTokenStore {
  return {
    async create(userId) {
      const token = randomBytes(32).toString('base64url');
      const t = now();
      await db
        .insertInto('password_reset_tokens')
        .values({
          id: tokenId(token),
          user_id: userId,
          created_at: new Date(t),
          expires_at: new Date(t + RESET_TOKEN_TTL_MS),
          used_at: null,
        })
        .execute();
      return token;
    },
    async consume(token) {
      if (!token || token.length > 200) return null;
      const t = new Date(now());
      const row = await db
        .updateTable('password_reset_tokens')
        .set({ used_at: t })
        .where('id', '=', tokenId(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', t)
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id ?? null;
    },
    async countSince(userId, since) {
      const row = await db
        .selectFrom('password_reset_tokens')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async voidAll(userId) {
      await db
        .updateTable('password_reset_tokens')
        .set({ used_at: new Date(now()) })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    },
  };
}

/** Counters with expiry behind the attempt limiter: in memory, or Redis (shared by every instance). */
export interface CounterStore {
  /** Adds 1 to `key` and returns the new count; a new key lives `ttlMs`. */
  incr(key: string, ttlMs: number): Promise<number>;
  /** Sets `key` to live `ttlMs` from now. */
  mark(key: string, ttlMs: number): Promise<void>;
  /** ms left of `key`, or 0 when it does not exist. */
  ttl(key: string): Promise<number>;
  del(key: string): Promise<void>;
}

/** In-memory counters (one instance); `now` lets tests move time. */
export function createMemoryCounterStore(now: () => number = Date.now): CounterStore {
  const entries = new Map<string, { count: number; until: number }>();
  const live = (key: string) => {
    const e = entries.get(key);
    if (e && e.until <= now()) {
      entries.delete(key);
      return undefined;
    }
    return e;
  };
  return {
    async incr(key, ttlMs) {
      const e = live(key) ?? { count: 0, until: now() + ttlMs };
      e.count += 1;
      entries.set(key, e);
      return e.count;
    },
    async mark(key, ttlMs) {
      entries.set(key, { count: 1, until: now() + ttlMs });
    },
    async ttl(key) {
      const e = live(key);
      return e ? e.until - now() : 0;
    },
    async del(key) {
      entries.delete(key);
    },
  };
}

/** The Redis commands {@link createRedisCounterStore} uses (ioredis). */
export interface RedisLike {
  incr(key: string): Promise<number>;
  pexpire(key: string, ms: number, mode: 'NX'): Promise<number>;
  set(key: string, value: string, px: 'PX', ms: number): Promise<unknown>;
  pttl(key: string): Promise<number>;
  del(key: string): Promise<number>;
}

/** Counters in Redis under `prefix` (INCR + PEXPIRE NX, SET PX, PTTL). */
export function createRedisCounterStore(redis: RedisLike, prefix: string): CounterStore {
  return {
    async incr(key, ttlMs) {
      const count = await redis.incr(prefix + key);
      await redis.pexpire(prefix + key, ttlMs, 'NX');
      return count;
    },
    async mark(key, ttlMs) {
      await redis.set(prefix + key, '1', 'PX', ttlMs);
    },
    async ttl(key) {
      const ms = await redis.pttl(prefix + key);
      return ms > 0 ? ms : 0;
    },
    async del(key) {
      await redis.del(prefix + key);
    },
  };
}

/**
 * Counters in `primary` (Redis, shared by every instance) that fall back to `fallback` (this instance's
 * memory) while `primary` fails, so a lost Redis degrades the throttle to per instance — never to no
 * throttle and never to a 500 (issue 14 item 2). `onOutage(true, err)` is called once when `primary` starts
 * failing, `onOutage(false)` once when it answers again.
 */
export function createFallbackCounterStore(
  primary: CounterStore,
  fallback: CounterStore,
  onOutage: (down: boolean, err?: unknown) => void,
): CounterStore {
  let down = false;
  const run = async <T>(op: (store: CounterStore) => Promise<T>): Promise<T> => {
    try {
      const result = await op(primary);
      if (down) {
        down = false;
        onOutage(false);
      }
      return result;
    } catch (err) {
      if (!down) {
        down = true;
        onOutage(true, err);
      }
      return op(fallback);
    }
  };
  return {
    incr: (key, ttlMs) => run((store) => store.incr(key, ttlMs)),
    mark: (key, ttlMs) => run((store) => store.mark(key, ttlMs)),
    ttl: (key) => run((store) => store.ttl(key)),
    del: (key) => run((store) => store.del(key)),
  };
}

/** Limits of one kind of subject (an account, a client address). */
export interface AttemptRule {
  /** Failures within `windowMs` that start a block. */
  maxFailures: number;
  windowMs: number;
  /** First block (ms); each further block within `strikeMemoryMs` doubles, up to `maxBlockMs`. */
  baseBlockMs: number;
  maxBlockMs: number;
  strikeMemoryMs: number;
}

/**
 * Per account: the 5th wrong password within 15 minutes blocks the account's password sign-in for 5
 * minutes, doubling with each further block within a day up to 1 hour; never a permanent lock (issue 11).
 */
export const ACCOUNT_RULE: AttemptRule = {
  maxFailures: 5,
  windowMs: 15 * 60_000,
  baseBlockMs: 5 * 60_000,
  maxBlockMs: 60 * 60_000,
  strikeMemoryMs: 24 * 3600_000,
};

/** Per client address: 20 failures within 15 minutes, same back-off (one address trying many accounts). */
export const ADDRESS_RULE: AttemptRule = { ...ACCOUNT_RULE, maxFailures: 20 };

/** Throttles password guessing per subject with exponential back-off. */
export interface AttemptLimiter {
  /** Throws ONB_RATE_LIMITED (429 'Please try after some time.', Retry-After) while any subject is blocked. */
  assertAllowed(subjects: { key: string; rule: AttemptRule }[]): Promise<void>;
  /** Counts a failure of each subject; reaching its rule's maximum starts a block. */
  fail(subjects: { key: string; rule: AttemptRule }[]): Promise<void>;
  /** Forgets the failures of `key` (after a right password); earlier blocks still count for back-off. */
  succeed(key: string): Promise<void>;
}

/** Creates the limiter over `store`. */
export function createAttemptLimiter(store: CounterStore): AttemptLimiter {
  return {
    async assertAllowed(subjects) {
      let waitMs = 0;
      for (const s of subjects) waitMs = Math.max(waitMs, await store.ttl(`block:${s.key}`));
      if (waitMs > 0) throw onboardError('ONB_RATE_LIMITED', { retryAfterS: Math.ceil(waitMs / 1000) });
    },
    async fail(subjects) {
      for (const { key, rule } of subjects) {
        const failures = await store.incr(`fail:${key}`, rule.windowMs);
        if (failures < rule.maxFailures) continue;
        const strikes = await store.incr(`strike:${key}`, rule.strikeMemoryMs);
        const blockMs = Math.min(rule.baseBlockMs * 2 ** Math.min(strikes - 1, 20), rule.maxBlockMs);
        await store.mark(`block:${key}`, blockMs);
        await store.del(`fail:${key}`);
      }
    },
    async succeed(key) {
      await store.del(`fail:${key}`);
    },
  };
}
