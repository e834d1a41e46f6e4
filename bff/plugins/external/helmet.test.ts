import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import helmetPlugin, { apiSecurityHeaders, securityHeaders } from './helmet';

/** The headers helmet itself sets with `options`, on a bare Fastify answer. */
async function helmetsOwn(options: { hsts: boolean }): Promise<Record<string, unknown>> {
  const app = Fastify();
  await app.register(helmet, { contentSecurityPolicy: false, ...options });
  app.get('/', async () => 'ok');
  const res = await app.inject('/');
  await app.close();
  const { 'content-type': _t, 'content-length': _l, date: _d, connection: _c, ...headers } = res.headers;
  return headers;
}

describe('security headers', () => {
  it("are helmet's defaults, with HSTS only in production", async () => {
    expect(securityHeaders(false)).toEqual(await helmetsOwn({ hsts: false }));
    expect(securityHeaders(true)).toEqual(await helmetsOwn({ hsts: true }));
  });

  it('are set on every answer with the policy, the framed policy on the preview frames', async () => {
    const app = Fastify();
    await app.register(helmetPlugin, { production: false, mapTileUrl: null });
    app.get('/x', async () => 'ok');
    app.get('/__preview/screens/frame', async () => 'ok');
    const plain = await app.inject('/x');
    expect(plain.headers).toMatchObject(securityHeaders(false));
    expect(plain.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const framed = await app.inject('/__preview/screens/frame');
    expect(framed.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    // Also on answers no route matched.
    expect((await app.inject('/missing')).headers).toMatchObject(securityHeaders(false));
    await app.close();
  });

  it("are OWASP's REST set on the API's answers, but on a route that answers a document", async () => {
    const app = Fastify();
    await app.register(helmetPlugin, { production: true, mapTileUrl: null });
    app.get('/hms_ms/api/v1/x', async () => ({ success: true }));
    app.get('/owner_ms/api/v1/x', async () => ({ success: true }));
    app.get('/hms_ms/api/v1/page', { config: { document: true } }, async () => 'page');
    for (const url of ['/hms_ms/api/v1/x', '/owner_ms/api/v1/x', '/hms_ms/api/v1/missing']) {
      const res = await app.inject(url);
      expect(res.headers).toMatchObject({
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-resource-policy': 'same-origin',
        'strict-transport-security': securityHeaders(true)['strict-transport-security'],
      });
      // Headers that act on documents only are left out.
      for (const name of ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-xss-protection'])
        expect(res.headers[name], `${url} ${name}`).toBeUndefined();
    }
    const page = await app.inject('/hms_ms/api/v1/page');
    expect(page.headers).toMatchObject(securityHeaders(true));
    expect(page.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(Object.keys(apiSecurityHeaders(false))).not.toContain('strict-transport-security');
    await app.close();
  });
});
