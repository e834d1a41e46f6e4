import type { MessageTransport, OutgoingMessage } from './transport';
import { onFirstUse } from '../on-first-use';

/** Settings of the SMTP transport (from SMTP_URL and MAIL_FROM). */
export interface SmtpSettings {
  /**
   * smtp://user:pass@host:587 (plain, upgraded with STARTTLS when the server offers it) or
   * smtps://user:pass@host:465 (TLS from the start). Query parameters set further nodemailer SMTP
   * options, e.g. `?requireTLS=true`.
   */
  url: string;
  /** The sender, e.g. 'Property onboarding <no-reply@example.com>'. */
  from: string;
  /** Limit of each stage of a delivery (connecting, the greeting, each later reply), in ms. Default 10000. */
  timeoutMs?: number;
}

/** The transport of e-mail codes over SMTP; `kind` is `smtp`. */
export interface SmtpTransport extends MessageTransport {
  readonly kind: 'smtp';
  /** Releases the transport (no connection outlives a message; safe to call more than once). */
  close(): void;
}

/** Hides most of an address for logs and error texts: r***@example.com. */
function maskAddress(to: string): string {
  const at = to.lastIndexOf('@');
  return at > 0 ? `${to[0]}***${to.slice(at)}` : '***';
}

/**
 * Creates a {@link MessageTransport} that delivers e-mail (channel `email`) through an SMTP server with
 * nodemailer: one connection per message, `from` as sender, the message's `subject` (else its text) as
 * subject and its text as a plain-text body. `send` rejects with an Error naming the SMTP failure and
 * the address masked (never the code; the server's own reply is quoted as it is) when the server cannot be reached, refuses the sender, the recipient or
 * the message, or does not answer within `timeoutMs`; and with an Error for a message of another channel
 * (SMS is not sent by e-mail).
 */
export function createSmtpTransport(settings: SmtpSettings): SmtpTransport {
  const timeoutMs = settings.timeoutMs ?? 10_000;
  // nodemailer loads with the first e-mail (issue 13 item 5: not at every start).
  const mailer = onFirstUse(async () =>
    (await import('nodemailer')).default.createTransport({
      url: settings.url,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      // nodemailer logs nothing unless asked; the route logs failures with the request id.
      logger: false,
    }),
  );
  let made: Awaited<ReturnType<typeof mailer>> | null = null;
  return {
    kind: 'smtp',
    async send(msg: OutgoingMessage) {
      if (msg.channel !== 'email') throw new Error(`the SMTP transport sends e-mail, not ${msg.channel}`);
      try {
        made = await mailer();
        await made.sendMail({
          from: settings.from,
          to: msg.to,
          subject: msg.subject ?? msg.text,
          text: msg.text,
        });
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new Error(`SMTP delivery to ${maskAddress(msg.to)} failed: ${reason}`, { cause: err });
      }
    },
    close: () => made?.close(),
  };
}
