import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtpServer, type TestSmtpServer } from '../smtp-test-server';
import { createSmtpTransport } from './mail';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startTestSmtpServer({ user: 'mailer', pass: 'p@ss:word' });
});
afterAll(async () => smtp.close());

/** A port on 127.0.0.1 where nothing listens (taken, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('SMTP transport', () => {
  it('delivers a plain-text e-mail with sender, recipient, subject and body, after logging in', async () => {
    const transport = createSmtpTransport({
      url: smtp.url,
      from: 'Property onboarding <no-reply@onboard.example>',
    });
    expect(transport.kind).toBe('smtp');
    await transport.send({
      channel: 'email',
      to: 'owner@example.com',
      code: '4821',
      subject: 'Your verification code',
      text: 'Your verification code is 4821. It expires in 5 minutes.',
    });
    const mail = smtp.received.at(-1)!;
    expect(mail.user).toBe('mailer');
    expect(mail.from).toBe('no-reply@onboard.example');
    expect(mail.to).toEqual(['owner@example.com']);
    expect(mail.fromHeader).toBe('Property onboarding <no-reply@onboard.example>');
    expect(mail.subject).toBe('Your verification code');
    expect(mail.text).toBe('Your verification code is 4821. It expires in 5 minutes.');
    transport.close();
  });

  it('keeps non-Latin subjects and bodies intact', async () => {
    const transport = createSmtpTransport({ url: smtp.url, from: 'no-reply@onboard.example' });
    await transport.send({
      channel: 'email',
      to: 'owner@example.com',
      code: '0007',
      subject: 'رمز التحقق الخاص بك',
      text: 'رمز التحقق الخاص بك هو 0007.',
    });
    const mail = smtp.received.at(-1)!;
    expect(mail.subject).toBe('رمز التحقق الخاص بك');
    expect(mail.text).toBe('رمز التحقق الخاص بك هو 0007.');
  });

  it('sends e-mail only', async () => {
    const transport = createSmtpTransport({ url: smtp.url, from: 'no-reply@onboard.example' });
    const before = smtp.received.length;
    await expect(
      transport.send({ channel: 'sms', to: '+919876543210', code: '1234', text: '1234' }),
    ).rejects.toThrow(/e-mail, not sms/);
    expect(smtp.received.length).toBe(before);
  });

  it('rejects with the SMTP reason when the server refuses the message, the address masked', async () => {
    const refusing = await startTestSmtpServer({ refuse: 'Mailbox unavailable' });
    try {
      const transport = createSmtpTransport({ url: refusing.url, from: 'no-reply@onboard.example' });
      const sent = transport.send({
        channel: 'email',
        to: 'owner@example.com',
        code: '1234',
        subject: 's',
        text: 'Your verification code is 1234',
      });
      await expect(sent).rejects.toThrow(
        /^SMTP delivery to o\*\*\*@example\.com failed: .*550.*Mailbox unavailable/,
      );
      await expect(sent).rejects.not.toThrow(/1234/);
      expect(refusing.refused).toHaveLength(1);
    } finally {
      await refusing.close();
    }
  });

  it('rejects when the login is wrong', async () => {
    const transport = createSmtpTransport({
      url: `smtp://mailer:wrong@127.0.0.1:${smtp.port}`,
      from: 'no-reply@onboard.example',
    });
    await expect(
      transport.send({ channel: 'email', to: 'owner@example.com', code: '1', text: '1' }),
    ).rejects.toThrow(/SMTP delivery to o\*\*\*@example\.com failed: .*Invalid login/i);
  });

  // The refusal itself is the answer (ECONNREFUSED), not the timeout run out: no clock is read.
  it('rejects with the refusal, not a timeout, when nothing listens', async () => {
    const transport = createSmtpTransport({
      url: `smtp://127.0.0.1:${await closedPort()}`,
      from: 'no-reply@onboard.example',
      timeoutMs: 2000,
    });
    await expect(
      transport.send({ channel: 'email', to: 'owner@example.com', code: '1', text: '1' }),
    ).rejects.toThrow(/SMTP delivery to o\*\*\*@example\.com failed: .*ECONNREFUSED/);
  });
});
