import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

/**
 * The test topology of issue 14 item 3: a fresh database on the PostgreSQL server, a Redis of its own (so
 * that a test can stop it), two BFF instances started as `npm run serve` starts one (the built
 * `dist/server/server.js`), and Debian's nginx round-robin in front. Every instance trusts the balancer
 * (`TRUST_PROXY=127.0.0.1`) and the balancer overwrites `X-Forwarded-For` with the address it saw, so the
 * recorded client address and the rate limits use the real client and a client cannot choose its own.
 *
 * The instances run with `NODE_ENV=test` so that one-time codes can be read from each instance's
 * development outbox (`/__dev/outbox`, loopback only); everything else is the production code path.
 */

/** One BFF instance of the cluster. */
export interface ClusterInstance {
  /** `http://127.0.0.1:<port>`, the instance directly (not through the balancer). */
  url: string;
  /** `127.0.0.1:<port>`, as nginx names it in `X-Upstream`. */
  address: string;
  /** The process, or null once killed. */
  process: ChildProcess | null;
  /** Where its standard output and error go. */
  logFile: string;
  /** Sends SIGKILL and waits for the exit. */
  kill(): Promise<void>;
  /** Starts it again (same port, same environment) and waits for `/readyz` 200. */
  restart(): Promise<void>;
}

/** A running cluster; {@link Cluster.stop} stops every part and drops the database. */
export interface Cluster {
  /** The balancer: `http://127.0.0.1:<port>`. */
  url: string;
  instances: ClusterInstance[];
  /** `postgres://…/<fresh database>` the instances use. */
  databaseUrl: string;
  /** Stops the cluster's Redis (SIGKILL: no goodbye to the clients). */
  stopRedis(): Promise<void>;
  /** Starts the cluster's Redis again on the same port. */
  startRedis(): Promise<void>;
  /**
   * Makes the database refuse connections (`ALLOW_CONNECTIONS false`) and ends the open ones, as if
   * PostgreSQL were down for the instances; {@link Cluster.allowDatabase} undoes it.
   */
  refuseDatabase(): Promise<void>;
  allowDatabase(): Promise<void>;
  stop(): Promise<void>;
}

/** What {@link startCluster} can be told. */
export interface ClusterOptions {
  /** Number of BFF instances (default 2). */
  instances?: number;
  /** Extra environment of every instance (e.g. `RATE_LIMIT_MAX`). */
  env?: Record<string, string>;
  /**
   * A maintenance database URL of the PostgreSQL server (default: `CLUSTER_PG_ADMIN_URL`, else
   * `TEST_DATABASE_URL` with the database `postgres`, else `postgres://root@127.0.0.1:5432/postgres`).
   */
  adminUrl?: string;
}

const ROOT = resolve(import.meta.dirname, '../..');
/** The built server (`npm run build` writes it). */
export const SERVER = join(ROOT, 'dist/server/server.js');
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const REDIS = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** Resolves when `url` answers 200, polling every 100 ms; rejects after `timeoutMs` or when `alive` says false. */
export async function waitFor200(
  url: string,
  timeoutMs: number,
  alive: () => boolean = () => true,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (!alive()) throw new Error(`${url}: the process exited before it was ready`);
    if (Date.now() > until) throw new Error(`${url}: no 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function adminUrlOf(options: ClusterOptions): string {
  if (options.adminUrl) return options.adminUrl;
  if (process.env.CLUSTER_PG_ADMIN_URL) return process.env.CLUSTER_PG_ADMIN_URL;
  if (process.env.TEST_DATABASE_URL) {
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = '/postgres';
    return url.toString();
  }
  return 'postgres://root@127.0.0.1:5432/postgres';
}

async function admin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Waits for `child` to exit (resolves at once when it already has). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

/** The nginx configuration: round robin over `upstreams`, the client's address passed on, no buffering. */
export function nginxConfig(dir: string, port: number, upstreams: string[]): string {
  const user = process.getuid?.() === 0 ? 'user root root;\n' : '';
  return `${user}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream bff {
${upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    # Photos and KYC documents (SPEC §5: up to 10 MB a file, plus the form around it).
    client_max_body_size 12m;
    location / {
      proxy_pass http://bff;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # The address nginx saw, replacing whatever the client sent (the instances trust only this proxy).
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      # A dead instance: the request goes to the next one (only requests that are safe to repeat).
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      # The support chat's event stream and uploads pass through as they come.
      proxy_buffering off;
      proxy_request_buffering off;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/**
 * Starts the topology and resolves once the balancer and every instance answer `/readyz` 200.
 * @throws Error when `dist/server/server.js` (run `npm run build`), nginx or redis-server is missing, the
 *   PostgreSQL server cannot be reached, or a part is not ready within 60 s.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first`);
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install -y nginx-light`);
  if (!existsSync(REDIS)) throw new Error(`${REDIS} is missing: apt-get install -y redis-server`);
  const dir = mkdtempSync(join(tmpdir(), 'onboard-cluster-'));
  const adminUrl = adminUrlOf(options);
  const dbName = `onboard_cluster_${Date.now()}_${process.pid}`;
  await admin(adminUrl, (c) => c.query(`create database ${dbName}`));
  const databaseUrl = (() => {
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    return url.toString();
  })();

  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await admin(adminUrl, (c) => c.query(`drop database if exists ${dbName} with (force)`)).catch(
      () => undefined,
    );
    // CLUSTER_KEEP_LOGS=1 keeps the instances' logs and nginx's for a look after a failure.
    if (!process.env.CLUSTER_KEEP_LOGS) rmSync(dir, { recursive: true, force: true });
  };

  try {
    // Redis of its own, without persistence.
    const redisPort = await freePort();
    let redis: ChildProcess | null = null;
    const startRedis = async () => {
      redis = spawn(
        REDIS,
        ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      const until = Date.now() + 10_000;
      for (;;) {
        const ok = await new Promise<boolean>((done) => {
          const socket = connect(redisPort, '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            done(true);
          });
          socket.once('error', () => done(false));
        });
        if (ok) return;
        if (Date.now() > until) throw new Error('redis-server did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const stopRedis = async () => {
      const child = redis;
      redis = null;
      if (!child) return;
      child.kill('SIGKILL');
      await exited(child);
    };
    await startRedis();
    stops.push(stopRedis);

    const otpSecret = randomBytes(32).toString('hex');
    const instances: ClusterInstance[] = [];
    for (let i = 0; i < (options.instances ?? 2); i += 1) {
      const port = await freePort();
      const dataDir = join(dir, `instance-${i + 1}`);
      mkdirSync(dataDir, { recursive: true });
      const logFile = join(dir, `instance-${i + 1}.log`);
      const env = {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        TRUST_PROXY: '127.0.0.1',
        // One secret for every instance: a code sent by one is checked by another.
        OTP_SECRET: otpSecret,
        OTP_RESEND_COOLDOWN_MS: '1000',
        ...options.env,
      };
      const instance: ClusterInstance = {
        url: `http://127.0.0.1:${port}`,
        address: `127.0.0.1:${port}`,
        process: null,
        logFile,
        async kill() {
          const child = instance.process;
          instance.process = null;
          if (!child) return;
          child.kill('SIGKILL');
          await exited(child);
        },
        async restart() {
          await instance.kill();
          const log = createWriteStream(logFile, { flags: 'a' });
          const child = spawn(process.execPath, [SERVER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
          child.stdout.pipe(log);
          child.stderr.pipe(log);
          instance.process = child;
          await waitFor200(`${instance.url}/readyz`, 60_000, () => child.exitCode === null);
        },
      };
      instances.push(instance);
      stops.push(() => instance.kill());
    }
    // The instances migrate the fresh database at start; PostgreSQL's advisory lock lets one do it.
    await Promise.all(instances.map((instance) => instance.restart()));

    const port = await freePort();
    writeFileSync(
      join(dir, 'nginx.conf'),
      nginxConfig(
        dir,
        port,
        instances.map((i) => i.address),
      ),
    );
    const nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let nginxErr = '';
    nginx.stderr.on('data', (d: Buffer) => (nginxErr += d.toString()));
    stops.push(async () => {
      nginx.kill('SIGTERM');
      await exited(nginx);
    });
    const url = `http://127.0.0.1:${port}`;
    await waitFor200(`${url}/readyz`, 20_000, () => nginx.exitCode === null).catch((err: Error) => {
      throw new Error(`${err.message}\n${nginxErr}`);
    });

    return {
      url,
      instances,
      databaseUrl,
      stopRedis,
      startRedis,
      refuseDatabase: () =>
        admin(adminUrl, async (c) => {
          await c.query(`alter database ${dbName} allow_connections false`);
          await c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
            dbName,
          ]);
        }),
      allowDatabase: () =>
        admin(adminUrl, async (c) => {
          await c.query(`alter database ${dbName} allow_connections true`);
        }),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
