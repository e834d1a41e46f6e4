import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { onboardError } from '../errors';

/** How long a key's first answer is kept, in ms (24 h): a retry later than that is a new request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600 * 1000;

/** The header a client sends to make a retry give the first answer (issue 14 item 5). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** An answer as kept for a key: HTTP status and the JSON body sent. */
export interface IdempotentAnswer {
  status: number;
  body: unknown;
}

/**
 * Thrown inside the work's transaction when the key already holds an answer: the transaction rolls back
 * (nothing of the retry is written) and {@link IdempotencyService.run} answers the kept one.
 */
export class IdempotentReplay extends Error {
  constructor(readonly answer: IdempotentAnswer) {
    super('idempotent replay');
  }
}

/**
 * What a service does with a key inside the transaction of its work, so the key and the work commit
 * together (a crash leaves neither): `begin` first, `end` with the result before the commit.
 */
export interface IdempotencyStep<R> {
  /**
   * Claims the key in `trx`. A claim held by a transaction still running waits for it to end.
   * @throws IdempotentReplay the key already holds an answer (same request); ONB_IDEMPOTENCY_KEY_REUSED
   *   (422) it holds the answer of a different request.
   */
  begin(trx: Transaction<Database>): Promise<void>;
  /** Keeps the answer of `result` under the key, in `trx`. */
  end(trx: Transaction<Database>, result: R): Promise<void>;
}

/** One request made idempotent: who sent it, its key (undefined: none sent) and its fingerprint. */
export interface IdempotentRequest {
  userId: string;
  key: string | undefined;
  /** {@link requestFingerprint} of the request. */
  fingerprint: string;
}

/** Idempotency keys of uploads and publishing, kept in table `idempotency_keys` (shared by instances). */
export interface IdempotencyService {
  /**
   * Runs `work` at most once per (user, key) with success: without a key, `work(undefined)` as is. With
   * one: a key holding an answer for the same fingerprint answers it again (`replayed` true) without
   * running `work`; a different fingerprint is refused. Otherwise `work` gets the step to call inside its
   * transaction; a retry racing the first waits for its commit and then answers the first's answer.
   * Refusals (thrown errors) are not kept: a retry runs again. Keys older than
   * {@link IDEMPOTENCY_KEY_TTL_MS} are forgotten.
   * @throws ONB_IDEMPOTENCY_KEY_REUSED (422) the key was used for a different request; what `work` throws.
   */
  run<R>(
    request: IdempotentRequest,
    answerOf: (result: R) => IdempotentAnswer,
    work: (step: IdempotencyStep<R> | undefined) => Promise<R>,
  ): Promise<IdempotentAnswer & { replayed: boolean }>;
}

/**
 * The fingerprint of a request: hex SHA-256 of the JSON of `parts` (method, route, parameters, fields,
 * the SHA-256 of a file…), in the order given.
 */
export function requestFingerprint(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Creates the service over `db`; `now` in ms since the epoch (default Date.now). */
export function createIdempotencyService(
  db: Kysely<Database>,
  now: () => number = Date.now,
): IdempotencyService {
  const find = (q: Kysely<Database> | Transaction<Database>, userId: string, key: string) =>
    q
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'response_status', 'response_body'])
      .where('user_id', '=', userId)
      .where('key', '=', key);

  /** The kept answer of a row for `fingerprint`, or undefined when it holds none. */
  const answerOfRow = (
    row: { fingerprint: string; response_status: number | null; response_body: unknown },
    fingerprint: string,
  ): IdempotentAnswer | undefined => {
    if (row.response_status === null) return undefined;
    if (row.fingerprint !== fingerprint) throw onboardError('ONB_IDEMPOTENCY_KEY_REUSED');
    return { status: row.response_status, body: row.response_body };
  };

  return {
    async run(request, answerOf, work) {
      const { userId, key, fingerprint } = request;
      if (key === undefined) return { ...answerOf(await work(undefined)), replayed: false };
      await db
        .deleteFrom('idempotency_keys')
        .where('created_at', '<', new Date(now() - IDEMPOTENCY_KEY_TTL_MS))
        .execute();
      const kept = await find(db, userId, key).executeTakeFirst();
      const earlier = kept ? answerOfRow(kept, fingerprint) : undefined;
      if (earlier) return { ...earlier, replayed: true };

      const step: IdempotencyStep<Parameters<typeof answerOf>[0]> = {
        async begin(trx) {
          const claimed = await trx
            .insertInto('idempotency_keys')
            .values({
              user_id: userId,
              key,
              fingerprint,
              response_status: null,
              response_body: null,
              created_at: new Date(now()),
            })
            .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
            .returning('key')
            .executeTakeFirst();
          if (claimed) return;
          // Committed by another request meanwhile (the insert waited for it to end).
          const row = await find(trx, userId, key).forUpdate().executeTakeFirstOrThrow();
          const answer = answerOfRow(row, fingerprint);
          if (answer) throw new IdempotentReplay(answer);
          // Claimed by a request that was refused: this one takes the key.
          await trx
            .updateTable('idempotency_keys')
            .set({ fingerprint, created_at: new Date(now()) })
            .where('user_id', '=', userId)
            .where('key', '=', key)
            .execute();
        },
        async end(trx, result) {
          const answer = answerOf(result);
          await trx
            .updateTable('idempotency_keys')
            .set({ response_status: answer.status, response_body: JSON.stringify(answer.body) })
            .where('user_id', '=', userId)
            .where('key', '=', key)
            .execute();
        },
      };
      try {
        return { ...answerOf(await work(step)), replayed: false };
      } catch (err) {
        if (err instanceof IdempotentReplay) return { ...err.answer, replayed: true };
        throw err;
      }
    },
  };
}
