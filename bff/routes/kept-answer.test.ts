import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD_BYTES } from '../plugins/external/compress';
import { buildTestApp } from '../test-helpers';
import { keptAnswer, preferredEncoding } from './kept-answer';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ config: { selfOnboardDisabledCountries: ['ID'] } });
});

const varyOf = (header: unknown) =>
  String(header)
    .split(',')
    .map((v) => v.trim().toLowerCase());

describe('keptAnswer', () => {
  it('tags a body by its SHA-256: the same bytes the same tag, other bytes another', () => {
    const a = keptAnswer('{"success":true}');
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(keptAnswer(Buffer.from('{"success":true}')).etag).toBe(a.etag);
    expect(keptAnswer('{"success":false}').etag).not.toBe(a.etag);
  });
});

describe('preferredEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('gzip')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
    expect(preferredEncoding('gzip;q=0, br;q=0')).toBeNull();
  });

  it('gives the same answers for headers seen before, also once many others have been seen', () => {
    const headers = Array.from({ length: 100 }, (_, i) => (i % 2 ? `gzip;q=0.${i % 9}` : `br;q=0, x${i}`));
    const first = headers.map((h) => preferredEncoding(h));
    expect(first.filter((e) => e === 'gzip')).toHaveLength(44);
    expect(first.filter((e) => e === null)).toHaveLength(56);
    expect(headers.map((h) => preferredEncoding(h))).toEqual(first);
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
  });
});

describe('translations, kept (issue 13 item 6)', () => {
  const url = '/hms_ms/api/v1/translations/de';

  it('answers with a strong ETag, public for 5 minutes, and 304 without a body when If-None-Match names it', async () => {
    const first = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.json().data.language).toBe('de');

    const again = await app.inject({ url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // A weak comparison (RFC 9110 §13.1.2) and a list match too; another tag does not.
    expect((await app.inject({ url, headers: { 'if-none-match': `"x", W/${etag}` } })).statusCode).toBe(304);
    expect((await app.inject({ url, headers: { 'if-none-match': '"x"' } })).statusCode).toBe(200);
    // Each language is its own answer.
    const other = await app.inject({
      url: '/hms_ms/api/v1/translations/fr-FR',
      headers: { 'if-none-match': etag },
    });
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
  });

  it('is sent as brotli, else gzip, else as it is, the same JSON each way, with Vary: Accept-Encoding', async () => {
    const plain = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(varyOf(br.headers.vary)).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    // One ETag for the one representation's content, whatever the encoding it is sent in.
    expect(new Set([plain, br, gz].map((r) => r.headers.etag)).size).toBe(1);
  });

  it('still answers an unknown language 404 in the error shape', async () => {
    const res = await app.inject('/hms_ms/api/v1/translations/xx');
    expect(res.statusCode).toBe(404);
    expect(res.headers.etag).toBeUndefined();
    expect(res.json().error.code).toBe('ONB_LANGUAGE_NOT_FOUND');
  });
});

describe('global_info, kept per country (issue 13 item 6)', () => {
  const url = '/hms_ms/api/v1/global_info';

  it('answers no-cache with an ETag, varying on the country; 304 when it has not changed', async () => {
    const india = await app.inject(url);
    expect(india.statusCode).toBe(200);
    expect(india.headers['cache-control']).toBe('no-cache');
    expect(varyOf(india.headers.vary)).toEqual(
      expect.arrayContaining(['user_url_country', 'accept-encoding']),
    );
    const etag = String(india.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);

    const same = await app.inject({ url, headers: { 'if-none-match': etag } });
    expect(same.statusCode).toBe(304);
    expect(same.rawPayload.length).toBe(0);
    // A lower-case code is the same country as its upper-case one.
    const lower = await app.inject({ url, headers: { 'if-none-match': etag, user_url_country: 'in' } });
    expect(lower.statusCode).toBe(304);

    // Another country (self-onboarding disabled there) is another answer with another tag.
    const indonesia = await app.inject({ url, headers: { 'if-none-match': etag, user_url_country: 'ID' } });
    expect(indonesia.statusCode).toBe(200);
    expect(indonesia.headers.etag).not.toBe(etag);
    expect(indonesia.json().data).toMatchObject({ country_code: 'ID', is_self_onboard_enabled: false });
    expect((await app.inject(url)).json()).toEqual(india.json());
  });
});
