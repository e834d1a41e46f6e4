import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sharedDatabase } from '../../test-helpers';
import compressPlugin, { COMPRESS_THRESHOLD_BYTES, isCompressibleType } from './compress';
import { clientFilePaths, IMMUTABLE_CACHE } from './static';

const script = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const html = `<!doctype html><title>app</title><script type="module" src="/propertyOnboard/assets/index-3f9a1c.js"></script>${'<!-- padding -->'.repeat(80)}`;

/** A folder shaped like `vite build`'s output: index.html and a hashed asset, each with its .br and .gz. */
function builtClientDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'client-built-'));
  mkdirSync(join(dir, 'assets'));
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(text));
  };
  write('index.html', html);
  write('assets/index-3f9a1c.js', script);
  writeFileSync(join(dir, 'assets', 'index-3f9a1c.js.map'), '{"version":3,"sources":[],"mappings":""}');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

const vary = (h: unknown) => String(h ?? '').toLowerCase();

// The file's database is created once, in a hook (it takes seconds on a loaded machine).
beforeAll(async () => {
  await sharedDatabase();
});

describe('the built client, precompressed', () => {
  it('sends a hashed asset as brotli, else gzip, else as it is; immutable for a year; Vary: Accept-Encoding', async () => {
    const app = await buildTestApp({ clientDir: builtClientDir() });
    const url = '/propertyOnboard/assets/index-3f9a1c.js';

    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(vary(br.headers.vary)).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 4);

    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(vary(gz.headers.vary)).toContain('accept-encoding');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(vary(plain.headers.vary)).toContain('accept-encoding');
    expect(plain.body).toBe(script);
  });

  it('sends index.html, also as the fallback of client routes, compressed and no-cache', async () => {
    const app = await buildTestApp({ clientDir: builtClientDir() });
    for (const url of ['/propertyOnboard/index.html', '/propertyOnboard/sign_up', '/propertyOnboard']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(vary(res.headers.vary), url).toContain('accept-encoding');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(html);
    }
    // A file without a precompressed copy beside it is still no-cache outside assets/.
    const icon = await app.inject('/propertyOnboard/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('serves source maps outside production only', async () => {
    const dir = builtClientDir();
    const url = '/propertyOnboard/assets/index-3f9a1c.js.map';
    const dev = await buildTestApp({ clientDir: dir });
    expect((await dev.inject(url)).statusCode).toBe(200);

    const prod = await buildTestApp({
      clientDir: dir,
      config: {
        nodeEnv: 'production',
        messageTransport: 'webhook',
        messageWebhookUrl: 'http://127.0.0.1:9/hook',
      },
    });
    for (const path of [url, '/propertyOnboard/index-3f9a1c.js.map', '/propertyOnboard/sign_up.map']) {
      const res = await prod.inject({ url: path, headers: { accept: 'text/html,*/*' } });
      expect(res.statusCode, path).toBe(404);
      expect(res.json().success, path).toBe(false);
    }
    // The script itself is still served.
    expect((await prod.inject('/propertyOnboard/assets/index-3f9a1c.js')).statusCode).toBe(200);
    expect(clientFilePaths(dir, true).has(url)).toBe(false);
    expect(clientFilePaths(dir, false).has(url)).toBe(true);
  });
});

describe('API answers, compressed on the fly', () => {
  it('compresses a JSON answer above the threshold with brotli, else gzip, with Vary', async () => {
    const app = await buildTestApp();
    // The OpenAPI document goes through @fastify/compress on every request (translations, public screens and
    // global info are sent from copies kept compressed: routes/kept-answer).
    const url = '/hms_ms/api/openapi.json';
    const plain = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    expect(plain.headers['content-encoding']).toBeUndefined();

    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(vary(br.headers.vary)).toContain('accept-encoding');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);

    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves small answers as they are', async () => {
    const app = await buildTestApp();
    const res = await app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('never compresses an event stream or an image', async () => {
    expect(isCompressibleType('text/event-stream; charset=utf-8')).toBe(false);
    expect(isCompressibleType('application/json; charset=utf-8')).toBe(true);
    expect(isCompressibleType('application/problem+json')).toBe(true);
    expect(isCompressibleType('image/jpeg')).toBe(false);

    const app = Fastify();
    await app.register(compressPlugin);
    const big = 'data: x\n\n'.repeat(1000);
    app.get('/stream', async (_req, reply) => reply.type('text/event-stream; charset=utf-8').send(big));
    app.get('/photo', async (_req, reply) => reply.type('image/jpeg').send(Buffer.alloc(10_000, 1)));
    app.get('/json', async () => ({ text: big }));
    for (const url of ['/stream', '/photo']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBeUndefined();
    }
    const json = await app.inject({ url: '/json', headers: { 'accept-encoding': 'br, gzip' } });
    expect(json.headers['content-encoding']).toBe('br');
    await app.close();
  });
});

describe('rate limit and the client files', () => {
  it('does not count requests for the built client, while API requests still get 429', async () => {
    const app = await buildTestApp({ clientDir: builtClientDir(), config: { rateLimitMax: 3 } });
    const assets: number[] = [];
    for (let i = 0; i < 20; i++) {
      const url = i % 2 ? '/propertyOnboard/assets/index-3f9a1c.js' : '/propertyOnboard/index.html';
      assets.push((await app.inject({ url, headers: { 'accept-encoding': 'br' } })).statusCode);
    }
    expect(assets.every((s) => s === 200)).toBe(true);
    const api: number[] = [];
    for (let i = 0; i < 4; i++) api.push((await app.inject('/hms_ms/api/v1/global_info')).statusCode);
    expect(api).toEqual([200, 200, 200, 429]);
    // A path that is not a file of the build is counted (here already over the limit).
    expect((await app.inject('/propertyOnboard/assets/missing.js')).statusCode).toBe(429);
  });
});
