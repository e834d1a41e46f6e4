import { request as httpRequest } from 'node:http';
import { connect, type ClientHttp2Session } from 'node:http2';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type BenchServer } from '../server';
import { benchConfigOf, startTlsProxy, type TlsProxy } from '../tls-proxy';
import { freePort } from './topology';

/** One HTTP/2 GET on `session`: status, headers and body. */
function get2(
  session: ClientHttp2Session,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((done, fail) => {
    const req = session.request({ ':path': path, ...headers });
    const chunks: Buffer[] = [];
    let head: Record<string, unknown> = {};
    req.on('response', (h) => (head = h));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      done({ status: Number(head[':status']), headers: head, body: Buffer.concat(chunks) }),
    );
    req.on('error', fail);
    req.end();
  });
}

/**
 * deploy/nginx.conf, as bench/tls-proxy.ts runs it in front of the built server (issue 13 item 4): the HTTPS server
 * answers over HTTP/2, passes the pages, assets and API through, keeps the health routes private, and the plain
 * HTTP server sends browsers to HTTPS. A mistake in the deployment file fails here (nginx would not start).
 */
describe('the HTTPS front of deploy/nginx.conf', () => {
  let server: BenchServer;
  let front: TlsProxy;
  let httpPort: number;
  let session: ClientHttp2Session;

  beforeAll(async () => {
    server = await startServer(await freePort(), { RATE_LIMIT_MAX: '0' });
    const httpsPort = await freePort();
    httpPort = await freePort();
    front = await startTlsProxy(new URL(server.url).host, httpsPort, httpPort);
    session = connect(front.url, { rejectUnauthorized: false });
  });

  afterAll(async () => {
    session?.close();
    await front?.stop();
    await server?.stop();
  });

  it('serves the sign-in page over HTTP/2, with its scripts compressed and the API passed through', async () => {
    const page = await get2(session, '/propertyOnboard/sign_up');
    expect(session.alpnProtocol).toBe('h2');
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
    // The page's code: the chunk of every module its entry imports (vite.config.ts), one of its module scripts.
    const scripts = [...page.body.toString('utf8').matchAll(/<script type="module"[^>]* src="([^"]+)"/g)].map(
      (match) => match[1],
    );
    const script = scripts.find((src) => /^\/propertyOnboard\/assets\/initial-[\w-]+\.js$/.test(src ?? ''));
    expect(script, scripts.join(' ')).toBeDefined();
    const asset = await get2(session, script!, { 'accept-encoding': 'br, gzip' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    const screen = await get2(session, '/hms_ms/api/v1/screens/sign_up');
    expect(screen.status).toBe(200);
    expect(JSON.parse(screen.body.toString('utf8'))).toHaveProperty('data');
  });

  it('keeps the health routes from the public', async () => {
    expect((await get2(session, '/readyz')).status).toBe(404);
    expect((await get2(session, '/healthz')).status).toBe(404);
  });

  it('sends a plain-HTTP visit to the same address over HTTPS', async () => {
    const answer = await new Promise<{ status: number; location: string | undefined }>((done, fail) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: httpPort,
          path: '/propertyOnboard/sign_up?x=1',
          headers: { host: 'partner.example.com' },
        },
        (res) => {
          res.resume();
          done({ status: res.statusCode ?? 0, location: res.headers.location });
        },
      );
      req.on('error', fail);
      req.end();
    });
    expect(answer).toEqual({
      status: 301,
      location: 'https://partner.example.com/propertyOnboard/sign_up?x=1',
    });
  });

  it('refuses to measure a deployment file it cannot follow', () => {
    const deploy = readFileSync('deploy/nginx.conf', 'utf8');
    expect(() =>
      benchConfigOf(deploy.replace('listen 443 ssl http2;', 'listen 443 ssl;'), 'x:1', 1, 2, '/tmp'),
    ).toThrow(/listen 443 ssl http2/);
    const config = benchConfigOf(deploy, '127.0.0.1:9', 8443, 8080, '/tmp/d');
    expect(config).toContain('server 127.0.0.1:9;');
    expect(config).not.toContain('127.0.0.1:3002');
    expect(config).toContain('listen 127.0.0.1:8443 ssl http2;');
    expect(config).toContain('ssl_certificate /tmp/d/cert.pem;');
  });
});
