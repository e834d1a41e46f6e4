import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { uniquePhone } from './test-helpers';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LEADS = '/hms_ms/api/v1/onboard/leads';

/** The server process (`tsx bff/server.ts`) with its log lines (JSON, one per line) collected. */
interface Server {
  child: ChildProcess;
  port: number;
  logs: Record<string, unknown>[];
  exited: Promise<number | null>;
}

/** Starts bff/server.ts on a free port with PGlite in a fresh folder; resolves once the database is ready. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shutdown-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'bff', 'server.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      RATE_LIMIT_MAX: '0',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const logs: Record<string, unknown>[] = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await vi.waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${stderr}`);
      expect(logs.some((l) => l.msg === 'database ready')).toBe(true);
    },
    { timeout: 90_000, interval: 100 },
  );
  const opened = logs.find((l) => typeof l.msg === 'string' && l.msg.startsWith('open http://localhost:'));
  const port = Number(/localhost:(\d+)/.exec(String(opened?.msg))?.[1]);
  return { child, port, logs, exited };
}

/** A JSON call to the server; answers status, body and the cookies it set. */
async function call(port: number, method: string, path: string, body?: unknown, cookie?: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(';', 1)[0]);
  return { status: res.status, json: (await res.json()) as Record<string, unknown>, cookies };
}

/** Signs a new owner in through the development outbox and creates a lead; answers the cookie and lead id. */
async function ownerWithLead(port: number): Promise<{ cookie: string; leadId: string }> {
  const phone = uniquePhone();
  expect((await call(port, 'POST', '/hms_ms/api/v2/request_otp', { phone, purpose: 'sign_up' })).status).toBe(
    200,
  );
  const outbox = await (await fetch(`http://127.0.0.1:${port}/__dev/outbox`)).json();
  const code = (outbox as { to: string; code: string }[]).find((e) => e.to === phone)?.code;
  const verified = await call(port, 'POST', '/hms_ms/api/v2/verify_otp', {
    phone,
    purpose: 'sign_up',
    otp: code,
  });
  expect(verified.status).toBe(200);
  const cookie = verified.cookies.join('; ');
  const lead = await call(
    port,
    'POST',
    LEADS,
    { title: 'Sea View Residency', property_type: 'hotel', property_sub_type: 'boutique_hotel' },
    cookie,
  );
  expect(lead.status, JSON.stringify(lead.json)).toBe(201);
  const leadId = (lead.json as { data: { lead: { property_unique_id: string } } }).data.lead
    .property_unique_id;
  return { cookie, leadId };
}

/** HTTP/1.1 responses read from one connection (each with a Content-Length body). */
function splitResponses(raw: Buffer): { status: number; headers: Record<string, string>; body: string }[] {
  const out: { status: number; headers: Record<string, string>; body: string }[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length'] ?? 0);
    out.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: rest.subarray(end + 4, end + 4 + length).toString('utf8'),
    });
    rest = rest.subarray(end + 4 + length);
  }
  return out;
}

/** Whether a new TCP connection to `port` is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('graceful shutdown (SIGTERM)', () => {
  it('refuses new connections, finishes an upload in flight with its normal answer, answers a later request on its connection 503, then exits 0', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '60000', OYO_360_CHAT_ENABLED: 'true' });
    const { port } = server;
    const { cookie, leadId } = await ownerWithLead(port);

    // The owner has the support chat open: its event stream must end on shutdown, not hold the process.
    const stream = await fetch(`http://127.0.0.1:${port}/hms_ms/api/v1/onboard/support/messages/stream`, {
      headers: { cookie },
    });
    expect(stream.status).toBe(200);
    const events = stream.body!.getReader();
    expect(new TextDecoder().decode((await events.read()).value)).toContain('retry:');

    // A landscape photo of noise, 1400 × 1050 (accepted: over 1000 × 1000, not portrait).
    const noise = Buffer.alloc(1400 * 1050 * 3);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 7919 + (i >> 9) * 31) & 0xff;
    const jpeg = await sharp(noise, { raw: { width: 1400, height: 1050, channels: 3 } })
      .jpeg()
      .toBuffer();
    const boundary = `----shutdown${randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nroom\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="client_upload_id"\r\n\r\n${randomUUID()}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, jpeg, tail]);
    const half = head.length + Math.floor(jpeg.length / 2);

    // The upload starts on a raw keep-alive connection: headers and half of the body, then it stalls.
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    });
    const socketClosed = new Promise<void>((resolve, reject) => {
      socket.once('close', () => resolve());
      socket.once('error', reject);
    });
    socketClosed.catch(() => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST ${LEADS}/${leadId}/images HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n` +
        `Cookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, half));
    await vi.waitFor(
      () =>
        expect(
          server.logs.some((l) => (l.req as { url?: string } | undefined)?.url?.endsWith('/images')),
        ).toBe(true),
      { timeout: 30_000, interval: 50 },
    );

    server.child.kill('SIGTERM');
    await vi.waitFor(() => expect(server.logs.some((l) => l.msg === 'closing')).toBe(true), {
      timeout: 30_000,
      interval: 50,
    });
    // No new connection once closing.
    await vi.waitFor(async () => expect(await refused(port)).toBe(true), { timeout: 30_000, interval: 50 });
    expect(server.child.exitCode).toBeNull();

    // The support stream is ended by the server.
    for (;;) {
      const chunk = await events.read();
      if (chunk.done) break;
    }

    // The rest of the upload, and a second request behind it on the same connection.
    socket.write(body.subarray(half));
    socket.write(`GET /hms_ms/api/v1/global_info HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await socketClosed;
    const [first, second] = splitResponses(received);
    // The upload in flight is answered as usual.
    expect(first?.status, first?.body).toBe(201);
    expect(JSON.parse(first!.body)).toMatchObject({ success: true, data: { image: { status: 'accepted' } } });
    // The request that came after SIGTERM: 503 in the API's error shape, with Retry-After, and the connection closed.
    expect(second?.status).toBe(503);
    expect(second?.headers['retry-after']).toBe('1');
    expect(second?.headers.connection).toBe('close');
    expect(JSON.parse(second!.body)).toMatchObject({
      success: false,
      error: { code: 'ONB_NOT_READY', message: 'Internal Server Error' },
    });
    expect(await server.exited).toBe(0);
  }, 180_000);
});
