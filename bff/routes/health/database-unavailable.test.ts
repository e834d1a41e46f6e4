import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectDatabase, DatabaseTimeoutError, isDatabaseUnavailableError } from '../../db';
import { buildTestApp, uniquePhone } from '../../test-helpers';

/** A request that needs the database and nothing else: a sign-up code (stored in otp_codes). */
function requestCode(app: Awaited<ReturnType<typeof buildTestApp>>) {
  return app.inject({
    method: 'POST',
    url: '/hms_ms/api/v2/request_otp',
    payload: { phone: uniquePhone(), purpose: 'sign_up' },
  });
}

/**
 * A TCP proxy in front of PostgreSQL on a fixed port, that can be stopped (connections refused, open ones
 * cut), made a black hole (connections accepted, nothing answered), and started again.
 */
class DatabaseProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private blackHole = false;
  port = 0;
  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.blackHole = false;
    const server = createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => {});
      if (this.blackHole) return;
      const upstream = connect(this.targetPort, this.host);
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Refuses new connections and cuts the open ones (PostgreSQL down). */
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Accepts connections but never answers; connections already open stop answering too. */
  async silence(): Promise<void> {
    await this.stop();
    await this.start();
    this.blackHole = true;
  }
}

describe('isDatabaseUnavailableError', () => {
  it('knows refused and lost connections, timeouts and PostgreSQL shutdown codes, and nothing else', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    expect(isDatabaseUnavailableError(coded('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailableError(new AggregateError([coded('ECONNREFUSED')]))).toBe(true);
    expect(isDatabaseUnavailableError(coded('57P01'))).toBe(true);
    expect(isDatabaseUnavailableError(coded('08006'))).toBe(true);
    expect(isDatabaseUnavailableError(coded('57014'))).toBe(true);
    expect(isDatabaseUnavailableError(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailableError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailableError(new DatabaseTimeoutError('connection', 5))).toBe(true);
    expect(isDatabaseUnavailableError(new Error('wrapped', { cause: coded('ECONNRESET') }))).toBe(true);
    // A database closed to new connections (ALTER DATABASE … ALLOW_CONNECTIONS false): 55000 by its message.
    expect(
      isDatabaseUnavailableError(
        Object.assign(new Error('database "onboard" is not currently accepting connections'), {
          code: '55000',
        }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailableError(coded('55000'))).toBe(false);
    expect(isDatabaseUnavailableError(coded('23505'))).toBe(false);
    expect(isDatabaseUnavailableError(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailableError(null)).toBe(false);
  });
});

describe('PGlite held too long', () => {
  it('answers 503 ONB_DATABASE_UNAVAILABLE with Retry-After when the connection is not free in time', async () => {
    const handle = connectDatabase(
      { kind: 'pglite', dataDir: null },
      { connectTimeoutMs: 100, queryTimeoutMs: 5000 },
    );
    await handle.opened;
    await handle.migrate?.();
    afterAll(() => handle.close());
    const app = await buildTestApp({ db: handle, config: { databaseRetryAfterS: 7 } });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Another piece of work holds PGlite's one connection.
    const holder = handle.db.connection().execute(async () => held);
    try {
      const res = await requestCode(app);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.json()).toMatchObject({
        success: false,
        error: { code: 'ONB_DATABASE_UNAVAILABLE', message: 'Internal Server Error' },
      });
    } finally {
      release();
      await holder;
    }
    expect((await requestCode(app)).statusCode).toBe(200);
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)('PostgreSQL unreachable (a proxy in front of it stopped or silent)', () => {
  it('answers 503 with Retry-After and the generic text at once, never hangs, and recovers', async () => {
    const target = new URL(url!);
    const proxy = new DatabaseProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    afterAll(() => proxy.stop());
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    afterAll(async () => {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    });
    const proxied = new URL(url!);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const handle = connectDatabase(
      { kind: 'postgres', url: proxied.toString(), schema },
      { connectTimeoutMs: 300, queryTimeoutMs: 500 },
    );
    await handle.migrate?.();
    afterAll(() => handle.close());
    const app = await buildTestApp({ db: handle, config: { databaseRetryAfterS: 3 } });
    expect((await requestCode(app)).statusCode).toBe(200);

    // Refused: every request that needs the database answers 503 with Retry-After; /healthz stays 200.
    await proxy.stop();
    for (let i = 0; i < 3; i += 1) {
      const res = await requestCode(app);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('3');
      expect(res.json()).toMatchObject({
        success: false,
        error: { code: 'ONB_DATABASE_UNAVAILABLE', message: 'Internal Server Error' },
      });
    }
    const notReady = await app.inject('/readyz');
    expect(notReady.statusCode).toBe(503);
    expect(notReady.headers['retry-after']).toBeDefined();
    expect((await app.inject('/healthz')).statusCode).toBe(200);

    // Back: served again without a restart.
    await proxy.start();
    await vi.waitFor(async () => expect((await requestCode(app)).statusCode).toBe(200), { timeout: 5000 });
    expect((await app.inject('/readyz')).statusCode).toBe(200);

    // Silent (accepts, never answers): the pool's connect timeout and the query timeout answer 503.
    await proxy.silence();
    const silent = await requestCode(app);
    expect(silent.statusCode).toBe(503);
    expect(silent.headers['retry-after']).toBe('3');

    await proxy.stop();
    await proxy.start();
    await vi.waitFor(async () => expect((await requestCode(app)).statusCode).toBe(200), { timeout: 5000 });
  });

  it('answers 503 with Retry-After when its connections are ended by pg_terminate_backend mid-query', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    afterAll(async () => {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    });
    const appName = `health_${schema}`;
    const named = new URL(url!);
    named.searchParams.set('application_name', appName);
    const handle = connectDatabase(
      { kind: 'postgres', url: named.toString(), schema },
      { connectTimeoutMs: 1000, queryTimeoutMs: 5000 },
    );
    await handle.migrate?.();
    afterAll(() => handle.close());
    const app = await buildTestApp({ db: handle });
    // A query in flight (pg_sleep) is ended by the administrator.
    const inFlight = sql`select pg_sleep(3)`.execute(handle.db).then(
      () => null,
      (e: unknown) => e,
    );
    await vi.waitFor(
      async () => {
        const r = await admin.query(
          `select count(*)::int as n from pg_stat_activity where application_name = $1 and query like 'select pg_sleep%'`,
          [appName],
        );
        expect(r.rows[0].n).toBe(1);
      },
      { timeout: 5000 },
    );
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [
      appName,
    ]);
    const err = await inFlight;
    expect(isDatabaseUnavailableError(err)).toBe(true);
    // The pool replaces the ended connections: the next request is served.
    await vi.waitFor(async () => expect((await requestCode(app)).statusCode).toBe(200), { timeout: 5000 });
  });
});
