import { describe, expect, it } from 'vitest';
import { createDevTransport } from '../../services/transport';
import { buildTestApp } from '../../test-helpers';

describe('development outbox (issue 11 item 7)', () => {
  it('answers a loopback client, IPv4 or IPv6', async () => {
    const app = await buildTestApp();
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await app.inject({ url: '/__dev/outbox', remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(200);
      expect(Array.isArray(res.json())).toBe(true);
    }
  });

  it('answers 404 to any other client, whatever X-Forwarded-For says', async () => {
    const app = await buildTestApp();
    await app.transport.send({ channel: 'sms', to: '+919800000001', text: 'code 123456', code: '123456' });
    for (const remoteAddress of ['10.0.0.7', '192.168.1.20', '2001:db8::1']) {
      const res = await app.inject({
        url: '/__dev/outbox',
        remoteAddress,
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(res.statusCode, remoteAddress).toBe(404);
      expect(res.body).not.toContain('123456');
    }
  });

  it('does not exist when NODE_ENV is production, even with a development transport', async () => {
    const transport = createDevTransport();
    const app = await buildTestApp({
      transport,
      config: {
        nodeEnv: 'production',
        messageTransport: 'webhook',
        messageWebhookUrl: 'https://sms.invalid/',
      },
    });
    await transport.send({ channel: 'sms', to: '+919800000002', text: 'code 654321', code: '654321' });
    const res = await app.inject({ url: '/__dev/outbox', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('654321');
  });
});
