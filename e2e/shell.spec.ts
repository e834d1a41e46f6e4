import { expect, test } from '@playwright/test';
import { addHotel, signUp, uniquePhone, watchPlaceholders } from './helpers';

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
  // The language list is a chunk of its own, fetched before the page's first draw: no placeholder first.
  await watchPlaceholders(page);
  await page.goto('/propertyOnboard/language');
  await expect(page.getByRole('radio', { name: 'English' })).toBeChecked();
  await expect(page.locator('html[data-saw-placeholder]')).toHaveCount(0);
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

// The page fetches the chunk itself (modulepreload) and the renderer imports it: an import made while that fetch
// is under way shares it (one fetch for both), else it is a fetch of its own. Six fetches either way: with every
// fetch failing at once (either order, as it comes), and with the page's fetch held until the import has joined.
for (const { when, slowMs } of [
  { when: 'each fetch failing at once', slowMs: 0 },
  { when: "the page's fetch held 1.5 s", slowMs: 1500 },
]) {
  test(`a screen chunk that does not load is tried 6 times (${when}), then Refresh reloads the page (SPEC §4, §8)`, async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await signUp(page, request);
    const id = await addHotel(page, 'Chunk Court');
    // The checklist widget's code: every request of it fails (the first after `slowMs`).
    const tries = new Map<string, number>();
    await page.route(/\/assets\/checklist-[^/]*\.js$/, async (route) => {
      const name = new URL(route.request().url()).pathname;
      tries.set(name, (tries.get(name) ?? 0) + 1);
      if (tries.get(name) === 1 && slowMs) await new Promise((resolve) => setTimeout(resolve, slowMs));
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
}

test("a signed-in owner's checklist page carries its screen and global info and names its code in its head: it asks for neither", async ({
  page,
  request,
}) => {
  await signUp(page, request);
  const id = await addHotel(page, 'Preload Plaza');
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  // The checklist's code is waited for before the first draw: the first paint is the checklist itself.
  await watchPlaceholders(page);
  await page.goto(`/propertyOnboard/task?property_unique_id=${id}`);
  await expect(page.getByRole('heading', { name: 'Preload Plaza' })).toBeVisible();
  await expect(page.locator('html[data-saw-placeholder]')).toHaveCount(0);
  // The checklist widget's chunk and the footer's are fetched with the page's script (issue 13 item 4).
  await expect(page.locator('link[rel="modulepreload"][data-widget-type="checklist"]')).toHaveCount(1);
  await expect(page.locator('link[rel="modulepreload"][data-shell-part="footer"]')).toHaveCount(1);
  await expect(page.getByRole('navigation')).toBeVisible();
  expect(asked).not.toContain('/hms_ms/api/v1/global_info');
  expect(asked.filter((path) => path.startsWith('/hms_ms/api/v1/screens/'))).toEqual([]);
});

test('the sign-up page preloads the logo it draws and asks for no global info, login providers nor favicon', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await page.goto('/propertyOnboard/sign_up');
  await expect(page.getByLabel('Mobile number')).toBeVisible();
  // The configured providers come composed in the screen: the buttons are drawn with it.
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
  expect(asked).not.toContain('/hms_ms/api/v1/users/social_login/providers');
  const logo = page.locator('link[rel="preload"][as="image"]');
  await expect(logo).toHaveAttribute('href', /^\/propertyOnboard\/assets\/logo-[\w-]+\.svg$/);
  await expect(page.getByRole('banner').getByRole('img')).toHaveAttribute(
    'src',
    (await logo.getAttribute('href'))!,
  );
  expect(asked).not.toContain('/hms_ms/api/v1/global_info');
  // The favicon is in the page (a data: URL): no request of it is on the way to the first paint.
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /^data:image\/png;base64,/);
  expect(asked.filter((path) => /favicon/.test(path))).toEqual([]);
});

test('the sign-up page fetches the dispatcher, field checks and code field when the owner acts, not with the page', async ({
  page,
}) => {
  const chunks: string[] = [];
  page.on('request', (r) => {
    const name = /\/assets\/(interaction-code|otp-field|TouchRipple)-[\w-]+\.js$/.exec(r.url())?.[1];
    if (name) chunks.push(name);
  });
  await page.goto('/propertyOnboard/sign_up');
  const phone = page.getByLabel('Mobile number');
  await expect(phone).toBeVisible();
  // Everything the page fetches of itself (its script, logo, service worker) is over.
  await page.waitForLoadState('networkidle');
  expect(chunks).toEqual([]);
  // The first touch: the dispatcher and field checks, and the buttons' ripple.
  await phone.click();
  await expect.poll(() => [...chunks].sort()).toEqual(['TouchRipple', 'interaction-code']);
  // The first keystroke of the number: the code field of the next step.
  await phone.fill(uniquePhone().national);
  await expect.poll(() => chunks.filter((name) => name === 'otp-field')).toEqual(['otp-field']);
  await page.getByRole('button', { name: 'Get OTP' }).click();
  await expect(page.getByLabel('One-time code')).toBeVisible();
  expect([...chunks].sort()).toEqual(['TouchRipple', 'interaction-code', 'otp-field']);
});
