import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedReadsDialect, isCacheableRead, type ReadCacheStats } from './cached-reads';

interface Db {
  notes: { id: number; body: string };
}

let client: PGlite;
let db: Kysely<Db>;
let stats: () => ReadCacheStats;

beforeAll(async () => {
  client = new PGlite();
  const cached = cachedReadsDialect(new PGliteDialect(client));
  stats = cached.stats;
  db = new Kysely<Db>({ dialect: cached.dialect });
  await sql`create table notes (id int primary key, body text not null)`.execute(db);
  await db.insertInto('notes').values({ id: 1, body: 'first' }).execute();
});

afterAll(async () => {
  await db.destroy();
});

const bodyOf = async (id: number) =>
  (await db.selectFrom('notes').select('body').where('id', '=', id).executeTakeFirst())?.body;

describe('reads answered from memory until the next write (issue 13 item 6)', () => {
  it('answers a repeated read from the cache, and a write makes the next read go to the database', async () => {
    expect(await bodyOf(1)).toBe('first');
    const before = stats();
    expect(await bodyOf(1)).toBe('first');
    expect(stats().hits).toBe(before.hits + 1);

    await db.updateTable('notes').set({ body: 'second' }).where('id', '=', 1).execute();
    expect(await bodyOf(1)).toBe('second');
    expect(stats().misses).toBe(before.misses + 1);
  });

  it('keys by parameters: another id is another read', async () => {
    await db.insertInto('notes').values({ id: 2, body: 'other' }).execute();
    expect(await bodyOf(2)).toBe('other');
    expect(await bodyOf(1)).toBe('second');
  });

  it('hands out copies: a caller changing its rows does not change the next answer', async () => {
    await bodyOf(1);
    const row = await db.selectFrom('notes').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    row.body = 'changed by a caller';
    const again = await db.selectFrom('notes').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(again.body).toBe('second');
  });

  it('hands out deep copies of JSON values and dates, each a Date', async () => {
    const read = () =>
      sql<{
        data: { rooms: { name: string }[] };
        at: Date;
      }>`select '{"rooms":[{"name":"Deluxe"}]}'::jsonb as data, '2026-12-01T10:00:00Z'::timestamptz as at`.execute(
        db,
      );
    await read();
    const hitsBefore = stats().hits;
    const first = (await read()).rows[0]!;
    expect(stats().hits).toBe(hitsBefore + 1);
    expect(first.at).toBeInstanceOf(Date);
    first.data.rooms[0]!.name = 'changed by a caller';
    first.at.setUTCFullYear(2000);
    const again = (await read()).rows[0]!;
    expect(again.data).toEqual({ rooms: [{ name: 'Deluxe' }] });
    expect(again.at.toISOString()).toBe('2026-12-01T10:00:00.000Z');
  });

  it('a rolled-back write leaves no read of it behind, and reads inside a transaction see its writes', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('notes').set({ body: 'uncommitted' }).where('id', '=', 1).execute();
        expect(
          (await trx.selectFrom('notes').select('body').where('id', '=', 1).executeTakeFirst())?.body,
        ).toBe('uncommitted');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await bodyOf(1)).toBe('second');
  });

  it('a committed transaction is seen by the next read', async () => {
    await bodyOf(1);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('notes').set({ body: 'committed' }).where('id', '=', 1).execute();
    });
    expect(await bodyOf(1)).toBe('committed');
  });

  it('never keeps a binary value (photos are up to 10 MB): each read goes to the database', async () => {
    await sql`create table blobs (id int primary key, data bytea not null)`.execute(db);
    await sql`insert into blobs values (1, ${Buffer.from('photo bytes')})`.execute(db);
    const read = async () =>
      (await sql<{ data: Uint8Array }>`select data from blobs where id = ${1}`.execute(db)).rows[0]!.data;
    const before = stats();
    await read();
    const again = await read();
    expect(Buffer.from(again).toString()).toBe('photo bytes');
    expect(stats()).toMatchObject({ hits: before.hits, misses: before.misses + 2 });
  });

  it('never keeps a read that depends on the clock', async () => {
    const now = async () =>
      (await sql<{ t: string }>`select clock_timestamp()::text as t`.execute(db)).rows[0]!.t;
    const before = stats();
    await now();
    await now();
    // Both went to the database: neither was answered from, nor counted by, the cache.
    expect(stats()).toMatchObject({ hits: before.hits, misses: before.misses });
  });
});

describe('isCacheableRead', () => {
  it.each([
    ['select * from "leads" where "id" = $1', true],
    ['  SELECT 1', true],
    ['insert into "notes" values ($1)', false],
    ['select now()', false],
    ['select * from "sessions" where "expires_at" > current_timestamp', false],
    ['select pg_advisory_xact_lock(hashtext($1))', false],
    ['select * from "leads" where "id" = $1 for update', false],
    ['select random()', false],
    ['select nextval($1)', false],
  ])('%s → %s', (text, expected) => {
    expect(isCacheableRead(text)).toBe(expected);
  });
});
