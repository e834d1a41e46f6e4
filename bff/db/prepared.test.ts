import { Kysely, PostgresDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { preparedQuery, preparedStatementName } from './prepared';
import type { Database } from './schema';

// Compiles only: no connection is ever made.
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: {} as never }) });

describe('preparedQuery', () => {
  it('puts the values where the placeholders were, keeps the other parameters, and names the statement', () => {
    const compiled = db
      .selectFrom('leads')
      .select(['id', 'title'])
      .where('user_id', '=', '\u0000u')
      .where('status', '!=', 'DISCARDED')
      .where('property_unique_id', '=', '\u0000p')
      .compile();
    const bind = preparedQuery(compiled, ['\u0000p', '\u0000u']);
    const a = bind('PO1', 'user-1');
    const b = bind('PO2', 'user-2');
    expect(a.sql).toBe(compiled.sql);
    expect(a.parameters).toEqual(['user-1', 'DISCARDED', 'PO1']);
    expect(b.parameters).toEqual(['user-2', 'DISCARDED', 'PO2']);
    expect(a.queryId).not.toBe(b.queryId);
    expect(preparedStatementName(compiled.sql)).toMatch(/^onb_[0-9a-f]{20}$/);
    expect(preparedStatementName('select 1')).toBeUndefined();
  });

  it('refuses a placeholder the query does not hold', () => {
    const compiled = db.selectFrom('leads').select('id').where('user_id', '=', 'x').compile();
    expect(() => preparedQuery(compiled, ['\u0000missing'])).toThrow(/not in the query/);
  });
});
