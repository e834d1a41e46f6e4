import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the test server received: the SMTP envelope and the decoded headers and plain body. */
export interface ReceivedMail {
  /** MAIL FROM address. */
  from: string;
  /** RCPT TO addresses. */
  to: string[];
  /** The user that authenticated, or null. */
  user: string | null;
  /** Decoded Subject header. */
  subject: string;
  /** Decoded From header. */
  fromHeader: string;
  /** The plain-text body, transfer encoding undone (UTF-8). */
  text: string;
}

/** A real SMTP server (smtp-server) on 127.0.0.1 and a free port, for tests. */
export interface TestSmtpServer {
  /** smtp://user:pass@127.0.0.1:<port> */
  url: string;
  port: number;
  /** Messages accepted so far, oldest first. */
  received: ReceivedMail[];
  /** Messages that arrived but were refused (`refuse`), oldest first. */
  refused: ReceivedMail[];
  close(): Promise<void>;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=) of a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const src = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(src.slice(i + 1, i + 3))) {
      bytes.push(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Parses a single-part text message as nodemailer writes it. */
function parseMessage(raw: string): { subject: string; fromHeader: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) =>
    head
      .split('\r\n')
      .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  return {
    subject: decodeWords(header('Subject')),
    fromHeader: decodeWords(header('From')),
    text: text.replace(/\r\n$/, ''),
  };
}

/**
 * Starts an SMTP server on a free port of 127.0.0.1 that requires the login `user`/`pass` (plain text,
 * no STARTTLS) and keeps what it receives. With `refuse`, every message is read and then refused with
 * `550 <refuse>` (kept in `refused`).
 */
export async function startTestSmtpServer(
  opts: { user?: string; pass?: string; refuse?: string } = {},
): Promise<TestSmtpServer> {
  const user = opts.user ?? 'mailer';
  const pass = opts.pass ?? 'secret';
  const received: ReceivedMail[] = [];
  const refused: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) return callback(null, { user });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : null,
          ...parseMessage(Buffer.concat(chunks).toString('utf8')),
        };
        if (opts.refuse) {
          refused.push(mail);
          const err = Object.assign(new Error(opts.refuse), { responseCode: 550 });
          return callback(err);
        }
        received.push(mail);
        return callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    port,
    received,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
