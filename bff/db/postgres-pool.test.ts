import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from './index';

/**
 * PostgreSQL ending a pooled connection (a restart, a failover, pg_terminate_backend) must not end the
 * process: the pool reports it and the next query opens a new connection (issue 14 item 4; found by
 * bench/cluster/cluster.test.ts, where every instance exited).
 */
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL pool', () => {
  it('survives the server ending an idle connection and answers the next query', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => {
      if (w.name === 'DatabaseWarning') warnings.push(w);
    };
    process.on('warning', onWarning);
    const handle = connectDatabase({ kind: 'postgres', url: process.env.TEST_DATABASE_URL! });
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
      const pid = rows[0]!.pid;
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await expect.poll(() => warnings.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(warnings[0]!.message).toMatch(/terminating connection/);
      const again = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
      expect(again.rows[0]!.pid).not.toBe(pid);
    } finally {
      process.off('warning', onWarning);
      await admin.end();
      await handle.close();
    }
  });
});
