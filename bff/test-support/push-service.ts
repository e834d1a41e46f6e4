import { createECDH, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';

/** A subscription the stand-in made, as a browser's `PushSubscription.toJSON()` gives it. */
export interface StandInSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

/** A message the stand-in accepted: VAPID checked, payload decrypted. */
export interface ReceivedPush {
  /** Which subscription (the last path segment of its endpoint). */
  id: string;
  /** The decrypted payload, as text. */
  text: string;
  /** Claims of the verified VAPID JWT. */
  claims: JWTPayload;
  /** The request's TTL and Urgency headers. */
  ttl: string | undefined;
  urgency: string | undefined;
}

/** A request the stand-in refused, with why. */
export interface RefusedPush {
  id: string;
  status: number;
  reason: string;
}

/**
 * A loopback stand-in of a Web Push service (RFC 8030) for tests. It makes subscriptions as a browser would
 * (a P-256 key pair and a 16-byte auth secret per subscription), and for each POST to an endpoint:
 * - checks the VAPID authorization (RFC 8292): `Authorization: vapid t=<JWT>, k=<public key>`, where `k` must
 *   be the application server key the subscription was made with, and the JWT must verify with it (ES256,
 *   `jose`), name this service's origin as `aud`, expire within 24 hours and carry a `mailto:` or `https:` `sub`
 *   (401 / 403 otherwise);
 * - decrypts the aes128gcm body (RFC 8188 / RFC 8291) with the subscription's private key and auth secret
 *   (`http_ece`, the library web-push itself uses) — 400 when it does not decrypt;
 * - answers 201, or the status set with {@link PushServiceStandIn.expire} (410 Gone / 404), as a real push
 *   service does for a subscription that has ended.
 */
export interface PushServiceStandIn {
  readonly origin: string;
  /** A new subscription for the application server key `vapidPublicKey` (base64url). */
  subscribe(vapidPublicKey: string): StandInSubscription;
  /** From now on, POSTs to this endpoint are answered `status` (410 or 404: the subscription has ended). */
  expire(endpoint: string, status?: 404 | 410): void;
  readonly received: ReceivedPush[];
  readonly refused: RefusedPush[];
  /** Resolves when `count` messages have been accepted in all. */
  waitForMessages(count: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

interface Sub {
  ecdh: ECDH;
  auth: Buffer;
  applicationServerKey: string;
  endedWith?: number;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Verifies `Authorization: vapid t=…, k=…`; the claims, or a refusal. */
async function verifyVapid(
  header: string | undefined,
  sub: Sub,
  origin: string,
): Promise<{ claims: JWTPayload } | { status: number; reason: string }> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) return { status: 401, reason: 'no vapid authorization' };
  const [, token, k] = match as unknown as [string, string, string];
  if (k !== sub.applicationServerKey) return { status: 403, reason: 'k is not the subscription key' };
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return { status: 401, reason: 'k is not a P-256 point' };
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    'ES256',
  );
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], audience: origin });
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.exp !== 'number' || payload.exp > now + 24 * 3600) {
      return { status: 403, reason: 'exp missing or more than 24 h ahead' };
    }
    if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub)) {
      return { status: 403, reason: 'sub is not mailto: or https:' };
    }
    return { claims: payload };
  } catch (err) {
    return { status: 403, reason: `jwt: ${(err as Error).message}` };
  }
}

/** Starts the stand-in on 127.0.0.1 (a free port). */
export async function startPushServiceStandIn(): Promise<PushServiceStandIn> {
  const subs = new Map<string, Sub>();
  const received: ReceivedPush[] = [];
  const refused: RefusedPush[] = [];
  const waiters: { count: number; resolve: (r: ReceivedPush[]) => void }[] = [];
  let origin = '';

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const id = (req.url ?? '').split('/').pop() ?? '';
      const sub = subs.get(id);
      const refuse = (status: number, reason: string) => {
        refused.push({ id, status, reason });
        res.writeHead(status).end(reason);
      };
      if (req.method !== 'POST' || !req.url?.startsWith('/push/') || !sub)
        return refuse(404, 'no such subscription');
      if (sub.endedWith) return refuse(sub.endedWith, 'subscription ended');
      const vapid = await verifyVapid(req.headers.authorization, sub, origin);
      if ('status' in vapid) return refuse(vapid.status, vapid.reason);
      if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(415, 'not aes128gcm');
      if (req.headers.ttl === undefined) return refuse(400, 'no TTL');
      let text: string;
      try {
        text = ece
          .decrypt(body, {
            version: 'aes128gcm',
            privateKey: sub.ecdh,
            authSecret: sub.auth.toString('base64url'),
          })
          .toString('utf8');
      } catch (err) {
        return refuse(400, `decrypt: ${(err as Error).message}`);
      }
      received.push({
        id,
        text,
        claims: vapid.claims,
        ttl: req.headers.ttl as string | undefined,
        urgency: req.headers.urgency as string | undefined,
      });
      for (const w of [...waiters]) {
        if (received.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(received.slice());
        }
      }
      res.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end();
    })().catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    subscribe(vapidPublicKey) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomUUID();
      subs.set(id, { ecdh, auth, applicationServerKey: vapidPublicKey });
      return {
        endpoint: `${origin}/push/${id}`,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      };
    },
    expire(endpoint, status = 410) {
      const sub = subs.get(endpoint.split('/').pop() ?? '');
      if (sub) sub.endedWith = status;
    },
    received,
    refused,
    waitForMessages(count) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
