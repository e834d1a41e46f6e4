/**
 * Stand-ins for the sign-in providers, started by playwright.config.ts beside the app (issue 11 items 2–3):
 * - a real OpenID Provider (`oidc-provider`) on 127.0.0.1:<E2E_OIDC_PORT> for Google, Facebook and Apple,
 *   with the app's redirect URIs registered (see bff/test-support/oidc-stand-in.ts);
 * - Truecaller's profile endpoint on 127.0.0.1:<E2E_TRUECALLER_PORT>: GET /v1/default with
 *   `Authorization: Bearer token-<digits>` answers a profile whose number is +<digits>; any other token 401.
 * Run: npx tsx e2e/social-stand-ins.ts (env E2E_PORT, E2E_OIDC_PORT, E2E_TRUECALLER_PORT).
 */
import { createServer } from 'node:http';
import { startOidcStandIn } from '../bff/test-support/oidc-stand-in';

const appPort = Number(process.env.E2E_PORT ?? 3210);
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? appPort + 1000);
const truecallerPort = Number(process.env.E2E_TRUECALLER_PORT ?? appPort + 1001);

await startOidcStandIn({
  port: oidcPort,
  clients: ['google', 'facebook', 'apple'].map((p) => ({
    client_id: `${p}-client`,
    client_secret: `${p}-secret-0123456789abcdef`,
    redirect_uris: [`http://localhost:${appPort}/propertyOnboard/social_login/${p}`],
  })),
});

createServer((req, res) => {
  const token = /^Bearer token-(\d{8,15})$/.exec(req.headers.authorization ?? '');
  if (req.method !== 'GET' || !req.url?.startsWith('/v1/default') || !token) {
    res.writeHead(401).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      phoneNumbers: [Number(token[1])],
      addresses: [{ countryCode: 'in' }],
      name: { first: 'Stand-in', last: 'Owner' },
      onlineIdentities: { email: `tc-${token[1]}@example.com` },
    }),
  );
}).listen(truecallerPort, '127.0.0.1');

console.log(`stand-ins: OpenID provider on ${oidcPort}, Truecaller profile on ${truecallerPort}`);
