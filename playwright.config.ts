import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_STAFF_TOKEN } from './e2e/helpers';

/**
 * End-to-end tests: the real built client served by the real BFF (PGlite under a fresh data directory,
 * development message transport so codes are read from /__dev/outbox), driven in Debian's Chromium on a
 * mobile device profile. Run `npm run build` first (`npm test` does).
 */
const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;
/** Map tiles for end-to-end tests: an https address on a closed loopback port, so every tile fails at once. */
export const E2E_FAILING_TILES = 'https://127.0.0.1:9/tiles/{z}/{x}/{y}.png';
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'onboard-e2e-'));
// Stand-ins for Google/Facebook/Apple (a real oidc-provider) and Truecaller's profile endpoint (e2e/social-stand-ins.ts).
const oidcIssuer = `http://127.0.0.1:${port + 1000}`;
const truecallerHost = `127.0.0.1:${port + 1001}`;
const provider = (name: string) => ({
  [`${name}_CLIENT_ID`]: `${name.toLowerCase()}-client`,
  [`${name}_CLIENT_SECRET`]: `${name.toLowerCase()}-secret-0123456789abcdef`,
});

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // 53 flows on two workers share two cores with the server and Chromium: a single-task flow that takes 15 s
  // alone has been seen at 32 s in that company. Waits are on states, so a passing test never waits longer.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    // A trace of the retry (CI retries a failed test once): recording one for every test and dropping it when
    // it passes cost a quarter of the suite's time on a slow machine (20 flows: 1.8 → 1.3 min).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: chromium,
  },
  projects: [{ name: 'mobile', use: { ...devices['Pixel 7'], launchOptions: chromium } }],
  webServer: [
    {
      command: 'npx tsx e2e/social-stand-ins.ts',
      url: `${oidcIssuer}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_PORT: String(port) },
    },
    {
      // The built server (`npm run build` makes dist/server), as `npm run serve` starts it.
      command: 'node --import ./dist/server/instrument.js dist/server/server.js',
      // The server listens before its database is ready: wait for /readyz (503 until then).
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        MALLOC_ARENA_MAX: '2',
        RATE_LIMIT_MAX: '0',
        // No load shedding: two browsers and the server share CI's 2 cores, and the server's own synchronous
        // work (PGlite, a contract's PDF) can read as a second of event-loop delay, which sheds the next page
        // load as a 503 the test never recovers from (seen on the sign-up page). Unit tests turn it off for
        // the same reason (bff/test-helpers.ts); the health tests check shedding with their own limits.
        PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
        // No test depends on the internet: map tiles come from a port nothing listens on, so they fail and
        // the map keeps its plain surface (the default would be OpenStreetMap's tiles).
        MAP_TILE_URL: E2E_FAILING_TILES,
        // End-to-end tests sign up many numbers from one address quickly.
        OTP_RESEND_COOLDOWN_MS: '1000',
        GOOGLE_ISSUER: oidcIssuer,
        ...provider('GOOGLE'),
        APPLE_ISSUER: oidcIssuer,
        ...provider('APPLE'),
        FACEBOOK_ISSUER: oidcIssuer,
        FACEBOOK_AUTH_URL: `${oidcIssuer}/auth`,
        FACEBOOK_TOKEN_URL: `${oidcIssuer}/token`,
        FACEBOOK_USERINFO_URL: `${oidcIssuer}/me`,
        FACEBOOK_SCOPE: 'openid email',
        ...provider('FACEBOOK'),
        TRUECALLER_PARTNER_KEY: 'e2e-partner-key',
        TRUECALLER_PROFILE_HOSTS: truecallerHost,
        // The main app of e2e/sso.spec.ts: it serves its keys and home page on this loopback port.
        SSO_JWKS_URL: 'http://127.0.0.1:47305/.well-known/jwks.json',
        SSO_ISSUER: 'https://main-app.e2e.test',
        SSO_AUDIENCE: 'property-onboarding',
        SSO_SIGN_OUT_URL: 'http://127.0.0.1:47305/main-app',
        // The staff routes of e2e/analytics.spec.ts (error groups, funnel); the support chat stays off.
        SUPPORT_STAFF_TOKEN: E2E_STAFF_TOKEN,
      },
    },
  ],
});
