import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import helmetPlugin, { securityHeaders } from './helmet';

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
});
