/**
 * The deployment's HTTPS front (deploy/nginx.conf: nginx terminating TLS and speaking HTTP/2 to browsers) in
 * front of one benchmark server, so that `npm run bench` measures the pages as a phone receives them
 * (issue 13 item 4). The certificate is a throwaway self-signed one made with OpenSSL for 127.0.0.1; the
 * browser is told to accept it (`--ignore-certificate-errors`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEPLOY_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), '../deploy/nginx.conf');
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** A started HTTPS front. */
export interface TlsProxy {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  /** Stops nginx and removes its folder (certificate, configuration, logs). */
  stop(): Promise<void>;
}

/**
 * deploy/nginx.conf made to run here: its one upstream is `upstream` (`host:port`), its HTTPS server listens on
 * 127.0.0.1:`httpsPort` and its plain-HTTP server on 127.0.0.1:`httpPort`, with the certificate of `dir`. The
 * rest of the file (TLS and HTTP/2 settings, proxy headers, timeouts) is used as written.
 *
 * @throws Error when the deployment file no longer has a part this replaces (its upstream servers, `listen 80`,
 *   `listen 443 ssl http2`, the two certificate lines): the bench would otherwise measure something else.
 */
export function benchConfigOf(
  deployConfig: string,
  upstream: string,
  httpsPort: number,
  httpPort: number,
  dir: string,
): string {
  const replacements: [RegExp, string][] = [
    [/(upstream property_onboard \{[^}]*?)(?:\s*server \S+[^;]*;)+/, `$1\n    server ${upstream};`],
    [/listen 80;/, `listen 127.0.0.1:${httpPort};`],
    [/listen 443 ssl http2;/, `listen 127.0.0.1:${httpsPort} ssl http2;`],
    [/ssl_certificate \S+;/, `ssl_certificate ${dir}/cert.pem;`],
    [/ssl_certificate_key \S+;/, `ssl_certificate_key ${dir}/key.pem;`],
  ];
  let config = deployConfig;
  for (const [pattern, by] of replacements) {
    if (!pattern.test(config))
      throw new Error(`deploy/nginx.conf has no ${pattern.source}: bench/tls-proxy.ts must follow it`);
    config = config.replace(pattern, by);
  }
  return config;
}

/**
 * Starts nginx with deploy/nginx.conf ({@link benchConfigOf}) in front of `upstream`, on a free port, and resolves
 * once `GET /propertyOnboard/` answers through it (any status below 500).
 *
 * @throws Error when nginx or openssl is missing, nginx exits, or the front does not answer within 10 s.
 */
export async function startTlsProxy(
  upstream: string,
  httpsPort: number,
  httpPort: number,
): Promise<TlsProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'onboard-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const site = benchConfigOf(readFileSync(DEPLOY_CONFIG, 'utf8'), upstream, httpsPort, httpPort, dir);
  writeFileSync(join(dir, 'site.conf'), site);
  const user = process.getuid?.() === 0 ? 'user root root;\n' : '';
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${user}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`,
  );
  const nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  nginx.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const stop = async () => {
    if (nginx.exitCode === null && nginx.signalCode === null) {
      nginx.kill('SIGTERM');
      await new Promise((done) => nginx.once('exit', done));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `https://127.0.0.1:${httpsPort}`;
  const until = Date.now() + 10_000;
  for (;;) {
    const status = await statusOf(`${url}/propertyOnboard/`).catch(() => 0);
    if (status > 0 && status < 500) return { url, stop };
    if (nginx.exitCode !== null || Date.now() > until) {
      await stop();
      throw new Error(`nginx (HTTPS front) did not answer: ${stderr.trim() || `status ${status}`}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The status of a GET of `url`, accepting the self-signed certificate. */
function statusOf(url: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(url, { rejectUnauthorized: false, timeout: 2000 }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}
