import { expect, test } from '@playwright/test';
import { addHotel, signUp } from './helpers';

test('an invalid country code shows the not-found page', async ({ page }) => {
  await page.goto('/propertyOnboard/1x/task');
  await expect(page.getByRole('heading', { name: "We couldn't find the page" })).toBeVisible();
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/propertyOnboard/no/such/page');
  await expect(page.getByRole('heading', { name: "We couldn't find the page" })).toBeVisible();
  await page.goto('/somewhere-else');
  await expect(page.getByRole('heading', { name: "We couldn't find the page" })).toBeVisible();
});

test('a valid country code keeps the country-specific sign-up page', async ({ page }) => {
  await page.goto('/propertyOnboard/ae/dashboard');
  await expect(page).toHaveURL(/\/propertyOnboard\/ae\/sign_up$/);
  await expect(page.getByLabel('Mobile number')).toBeVisible();
  // The screen is composed for the path's country: its number is the one preselected.
  await expect(page.getByLabel('Country')).toHaveValue('AE');
});

test('Arabic renders right to left', async ({ page }) => {
  await page.goto('/propertyOnboard/language');
  await page.getByRole('radio', { name: 'العربية' }).check();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await page.goto('/propertyOnboard/sign_up');
  await expect(page.getByRole('heading', { name: 'أدرج عقارك' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
});

test.describe('on a desktop-wide window', () => {
  test.use({ viewport: { width: 1440, height: 900 } });
  test('only the desktop message shows', async ({ page }) => {
    await page.goto('/propertyOnboard/sign_up');
    await expect(page.getByText(/mobile browser/i)).toBeVisible();
    await expect(page.getByLabel('Mobile number')).toHaveCount(0);
  });
});

test('a screen chunk that does not load is tried 6 times, then Refresh reloads the page (SPEC §4, §8)', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signUp(page, request);
  const id = await addHotel(page, 'Chunk Court');
  // The checklist widget's code and its contents validator: every request of them fails.
  const tries = new Map<string, number>();
  await page.route(/\/assets\/checklist-[^/]*\.js$/, (route) => {
    const name = new URL(route.request().url()).pathname;
    tries.set(name, (tries.get(name) ?? 0) + 1);
    return route.abort('connectionreset');
  });
  await page.goto(`/propertyOnboard/task?property_unique_id=${id}`);
  const fallback = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
  await expect(fallback).toBeVisible({ timeout: 20_000 });
  expect(Math.max(...tries.values())).toBe(6);

  await page.unroute(/\/assets\/checklist-[^/]*\.js$/);
  await fallback.getByRole('button', { name: 'Refresh' }).click();
  await expect(fallback).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Chunk Court' })).toBeVisible();
});
