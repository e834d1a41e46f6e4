import { createHash } from 'node:crypto';
import { createQueryId, type CompiledQuery } from 'kysely';

/** SQL text → statement name of every {@link preparedQuery}. */
const statements = new Map<string, string>();

/**
 * A query compiled once, at start, and run with new values on every call (issue 13 item 6: the queries a
 * signed-in screen makes on every request). Kysely's query building and compiling cost ≈50–100 µs of CPU per
 * query; and on PostgreSQL the statement is prepared once per pooled connection under a name
 * ({@link preparedStatementName}, used by the pool in `db/index.ts`) instead of being parsed and planned on
 * every call.
 *
 * `compiled` is built with `placeholders` as values (strings that never occur as real values, e.g.
 * `'\u0000user'`); the returned function puts `values[i]` wherever `placeholders[i]` was. The query must name its
 * columns rather than `*`: a prepared `select *` fails ("cached plan must not change result type") once
 * another instance's migration adds a column.
 * @throws Error when a placeholder is not among the compiled parameters.
 */
export function preparedQuery<R>(
  compiled: CompiledQuery<R>,
  placeholders: readonly string[],
): (...values: unknown[]) => CompiledQuery<R> {
  for (const p of placeholders) {
    if (!compiled.parameters.includes(p))
      throw new Error(`placeholder ${JSON.stringify(p)} not in the query`);
  }
  statements.set(compiled.sql, `onb_${createHash('sha256').update(compiled.sql).digest('hex').slice(0, 20)}`);
  const slots = compiled.parameters.map((p) => placeholders.indexOf(p as string));
  return (...values) => ({
    ...compiled,
    queryId: createQueryId(),
    parameters: compiled.parameters.map((p, i) => (slots[i]! >= 0 ? values[slots[i]!] : p)),
  });
}

/** The statement name of a {@link preparedQuery}'s SQL text, or undefined for any other query. */
export function preparedStatementName(sql: string): string | undefined {
  return statements.get(sql);
}
