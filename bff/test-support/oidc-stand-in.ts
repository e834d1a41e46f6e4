import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** One relying party registered at the stand-in. */
export interface StandInClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

/** A running stand-in provider: its issuer URL and how to stop it. */
export interface OidcStandIn {
  issuer: string;
  close(): Promise<void>;
}

/** Added to a login by the sign-in page when 'E-mail verified' is unticked. */
export const UNVERIFIED_SUFFIX = '#unverified';

/**
 * The provider's account for a login name typed on the stand-in's sign-in page: the login is the e-mail;
 * one starting with `unverified`, or ending with {@link UNVERIFIED_SUFFIX}, has `email_verified: false`. `sub` is a
 * hash of the e-mail (the same provider account whatever the box said).
 */
export function standInAccount(login: string) {
  const unverified = login.endsWith(UNVERIFIED_SUFFIX);
  const email = (unverified ? login.slice(0, -UNVERIFIED_SUFFIX.length) : login).trim().toLowerCase();
  return {
    sub: `sub-${createHash('sha256').update(email).digest('hex').slice(0, 24)}`,
    email,
    email_verified: !unverified && !email.startsWith('unverified'),
    name: email.split('@')[0] ?? email,
  };
}

const page = (
  uid: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stand-in provider</title>
<meta name="viewport" content="width=device-width"></head><body><main><h1>Stand-in provider sign-in</h1>
<form method="post" action="/interaction/${uid}/login"><p><label>E-mail <input name="login" type="email" required></label></p>
<p><label><input name="email_verified" type="checkbox" value="yes" checked> E-mail verified</label></p>
<input type="hidden" name="from_page" value="1"><button type="submit">Sign in and allow</button></form></main></body></html>`;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts a real OpenID Provider (the `oidc-provider` package, certified) on 127.0.0.1 standing in for
 * Google, Facebook or Apple in tests: discovery, authorization (code + PKCE, form_post too), token,
 * userinfo at /me, JWKS. Its sign-in page asks for an e-mail (see {@link standInAccount}) and grants the
 * requested scopes at once. Clients authenticate with client_secret_post, as openid-client does.
 */
export async function startOidcStandIn(options: {
  clients: StandInClient[];
  port?: number;
}): Promise<OidcStandIn> {
  let provider: Provider | null = null;
  const logins = new Map<string, string>();
  const server = createServer((req, res: ServerResponse) => {
    void (async () => {
      if (!provider) return void res.writeHead(503).end();
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const match = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
      if (!match) return provider.callback()(req, res);
      try {
        const details = await provider.interactionDetails(req, res);
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(details.uid));
          return;
        }
        const form = await readForm(req);
        // A test's direct POST (no box at all) means verified; the page sends the box's state.
        const login = `${form.get('login') ?? ''}${form.has('login') && form.get('email_verified') === null && form.get('from_page') ? UNVERIFIED_SUFFIX : ''}`;
        const accountId = standInAccount(login).sub;
        logins.set(accountId, login);
        const grant = new provider.Grant({ accountId, clientId: details.params.client_id ?? '' });
        grant.addOIDCScope(details.params.scope ?? 'openid');
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(err));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      ...c,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], name: ['name'] },
    scopes: ['openid', 'email', 'profile', 'name'],
    // Google and Apple put the e-mail claims in the ID token itself.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: ['stand-in-cookie-key'] },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => standInAccount(logins.get(id) ?? id),
    }),
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
