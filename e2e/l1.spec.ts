import { expect, test } from '@playwright/test';
import type { BenchServer } from '../bench/server';
import { choose, signUp, startOwnServer } from './helpers';

/**
 * Issue 16 item 5, the L1 screens (SPEC §2) as variants of their screens (bff/screens/variants): with the
 * revamped first-level onboarding on (ENABLE_OYO360_L1_REVAMP, global_info.enable_oyo360_l1_revamp) an owner
 * gets the property info L1 after signing in and, once the property is created, the self-onboarding L1
 * checklist. The flag is server configuration, so this file starts its own BFF with it (on E2E_PORT + 1400).
 */
const port = Number(process.env.E2E_PORT ?? 3210) + 1400;

test.use({ baseURL: `http://127.0.0.1:${port}` });
test.describe.configure({ mode: 'serial' });

let server: BenchServer;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer(port, {
    OTP_RESEND_COOLDOWN_MS: '1000',
    MAP_TILE_URL: 'https://127.0.0.1:9/tiles/{z}/{x}/{y}.png',
    ENABLE_OYO360_L1_REVAMP: 'true',
  });
});
test.afterAll(async () => {
  await server?.stop();
});

test('with the L1 revamp on, an owner adds a property on the L1 property info, lands on the L1 checklist and gets the L1 amenities', async ({
  page,
  request,
}) => {
  await signUp(page, request);
  await expect(page.getByRole('heading', { name: 'List your property in minutes' })).toBeVisible();
  await expect(page.getByText('Start with its name and type. You can add the rest later.')).toBeVisible();

  await page.getByLabel('Property name').fill('Lighthouse Lodge');
  await choose(page, 'Property type', 'Hotel');
  await choose(page, 'Property sub type', 'Boutique hotel');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Property info L1 goes straight to the self-onboarding L1 checklist, footer hidden.
  await expect(page).toHaveURL(/\/propertyOnboard\/task\?property_unique_id=PO[0-9A-Z]{10}$/);
  await expect(page.getByRole('heading', { name: "You're a few steps from going live" })).toBeVisible();
  await expect(page.getByText('Lighthouse Lodge')).toBeVisible();
  await expect(page.getByRole('navigation').filter({ hasText: 'My Properties' })).toHaveCount(0);

  // Amenities L1: only the mandatory amenities are offered.
  const id = new URL(page.url()).searchParams.get('property_unique_id')!;
  await page.goto(`/propertyOnboard/task/details?task=amenities&property_unique_id=${id}`);
  await expect(page.getByText('Tick the essentials every listing needs to go live.')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /Wi-Fi/ })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /Parking/ })).toHaveCount(0);
});
