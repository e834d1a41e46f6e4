import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { BenchServer } from '../bench/server';
import { signUp, startOwnServer } from './helpers';

/**
 * Issue 16 item 3: a staff member changes a label through the staff API, an owner sees it on the next load
 * of the screen without a restart of the server, and a rollback restores it. The staff API needs a staff
 * token, and a published screen would show in the other files' flows: this file starts its own BFF with
 * one, on E2E_PORT + 1100.
 */
const port = Number(process.env.E2E_PORT ?? 3210) + 1100;
const STAFF_TOKEN = 'e2e-screens-staff-token-4b8d21';
const STAFF = '/hms_ms/api/v1/staff/screens';
const auth = { authorization: `Bearer ${STAFF_TOKEN}` };

test.use({ baseURL: `http://127.0.0.1:${port}` });
test.describe.configure({ mode: 'serial' });

let server: BenchServer;
test.beforeAll(async () => {
  // Its own server starts here; on two loaded cores that has been seen to take more than 90 s.
  test.setTimeout(180_000);
  server = await startOwnServer(port, {
    OTP_RESEND_COOLDOWN_MS: '1000',
    MAP_TILE_URL: 'https://127.0.0.1:9/tiles/{z}/{x}/{y}.png',
    SUPPORT_STAFF_TOKEN: STAFF_TOKEN,
  });
});
test.afterAll(async () => server?.stop());

test('a label changed through the staff API reaches an owner on the next load, and a rollback restores it', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await signUp(page, request);
  const original = page.getByRole('heading', { name: 'Introduce your property' });
  await expect(original).toBeVisible();

  // The staff member edits the definition file's heading and uploads it as a new version, then publishes it.
  const definition = JSON.parse(readFileSync('bff/screens/property_add.json', 'utf8')) as {
    widget_list: { id: string; contents: Record<string, unknown> }[];
  };
  definition.widget_list.find((w) => w.id === 'heading')!.contents.text = 'Tell us about your place';
  const uploaded = await request.post(`${STAFF}/property_add/versions`, {
    headers: auth,
    data: { author: 'designer@example.com', note: 'Warmer heading', definition },
  });
  expect(uploaded.status()).toBe(201);
  const { version } = (await uploaded.json()).data.version as { version: number };
  const published = await request.post(`${STAFF}/property_add/publish`, {
    headers: auth,
    data: { author: 'designer@example.com', version },
  });
  expect(published.status()).toBe(200);

  // The owner's open screen is not changed under them; the next load draws the new version.
  await expect(original).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Tell us about your place' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Property name' })).toBeVisible();

  const rolledBack = await request.post(`${STAFF}/property_add/rollback`, {
    headers: auth,
    data: { author: 'lead@example.com', version: 0 },
  });
  expect(rolledBack.status()).toBe(200);
  await page.reload();
  await expect(original).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Tell us about your place' })).toHaveCount(0);

  const audit = await request.get(`${STAFF}/audit?screen_id=property_add`, { headers: auth });
  const entries = (await audit.json()).data.entries as { action: string; actor: string; version: number }[];
  expect(entries.map((e) => [e.action, e.actor, e.version])).toEqual([
    ['rollback', 'lead@example.com', 0],
    ['publish', 'designer@example.com', version],
    ['upload', 'designer@example.com', version],
  ]);
});
