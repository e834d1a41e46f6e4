import { expect, test, type Page } from '@playwright/test';
import { addHotel, readCode, signUp, uniquePhone } from './helpers';

/**
 * The sign-in page drawn by the server (issue 13 item 4, renderer/server-render.tsx): shown before its script
 * has run, its controls disabled until the script has hydrated that very markup, then working as ever.
 */

/** Errors the page writes to its console (a hydration mismatch is one) and the errors it throws. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test.describe('without its script', () => {
  test.use({ javaScriptEnabled: false });

  test('the sign-in page shows its screen, its fields and buttons disabled', async ({ page }) => {
    await page.goto('/propertyOnboard/sign_up');
    await expect(page.getByRole('heading', { name: 'List your property' })).toBeVisible();
    await expect(page.getByLabel('Mobile number')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Get OTP' })).toBeDisabled();
  });

  test('so does the login page', async ({ page }) => {
    await page.goto('/propertyOnboard/login');
    await expect(page.locator('#root')).toHaveAttribute('data-server-drawn', 'en-GB');
    await expect(page.getByLabel('Mobile number')).toBeDisabled();
  });
});

test('the script hydrates the markup the server drew: the same elements, no error, and the form works', async ({
  page,
  request,
}) => {
  const errors = pageErrors(page);
  // The page's entry script (the chunk of every module it imports, vite.config.ts) is held until the markup has
  // been looked at.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/propertyOnboard\/assets\/initial-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/propertyOnboard/sign_up', { waitUntil: 'commit' });
  const heading = page.getByRole('heading', { name: 'List your property' });
  await expect(heading).toBeVisible();
  await expect(page.getByLabel('Mobile number')).toBeDisabled();
  await page.evaluate(() => {
    (window as unknown as { drawnHeading: Element | null }).drawnHeading = document.querySelector('h1');
  });
  release();
  await expect(page.getByLabel('Mobile number')).toBeEnabled();
  expect(
    await page.evaluate(() => {
      const drawn = (window as unknown as { drawnHeading: Element | null }).drawnHeading;
      return drawn !== null && drawn.isConnected && document.querySelector('h1') === drawn;
    }),
  ).toBe(true);
  const phone = uniquePhone();
  await page.getByLabel('Mobile number').fill(phone.national);
  await page.getByRole('button', { name: 'Get OTP' }).click();
  await expect(page.getByLabel('One-time code')).toBeVisible();
  await page.getByLabel('One-time code').fill(await readCode(request, phone.e164));
  await expect(page).toHaveURL(/\/propertyOnboard\/add$/);
  expect(errors).toEqual([]);
});

test("the server's styles are the client's: hydrating inserts none of them again", async ({
  page,
  request,
}) => {
  const html = await (await request.get('/propertyOnboard/sign_up')).text();
  const drawn = new Set([...html.matchAll(/\bmui-([a-z0-9]+)\b/g)].map((match) => match[1]));
  // Named as the client's production code names them: no component label (MUI's development names,
  // `mui-1sazv7p-MuiStack-root`, matched no style of the client).
  expect(/\bmui-[a-z0-9]+-Mui\w*/.exec(html)?.[0]).toBeUndefined();
  expect(drawn.size).toBeGreaterThan(10);
  await page.addInitScript(() => {
    const inserted: string[] = [];
    (window as unknown as { insertedRules: string[] }).insertedRules = inserted;
    const insertRule = CSSStyleSheet.prototype.insertRule;
    CSSStyleSheet.prototype.insertRule = function (this: CSSStyleSheet, rule: string, index?: number) {
      inserted.push(rule);
      return insertRule.call(this, rule, index);
    };
  });
  await page.goto('/propertyOnboard/sign_up');
  await expect(page.getByLabel('Mobile number')).toBeEnabled();
  const inserted = await page.evaluate(
    () => (window as unknown as { insertedRules: string[] }).insertedRules,
  );
  const again = inserted.filter((rule) =>
    [...rule.matchAll(/\.mui-([a-z0-9]+)\b/g)].some((m) => drawn.has(m[1])),
  );
  expect(again).toEqual([]);
});

test("a signed-in owner's checklist comes drawn by the server, is hydrated without an error and works", async ({
  page,
  request,
}) => {
  await signUp(page, request);
  const id = await addHotel(page, 'Drawn Court');
  const checklist = `/propertyOnboard/task?property_unique_id=${id}`;
  // The page as it arrives (the owner's session cookie with the request): the checklist already in it.
  const cookies = (await page.context().cookies())
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join('; ');
  const html = await (await request.get(checklist, { headers: { cookie: cookies } })).text();
  expect(html).toContain('data-server-drawn="en-GB"');
  expect(html).toContain('Tasks to complete');
  const errors = pageErrors(page);
  await page.goto(checklist);
  await expect(page.locator('#root')).toHaveAttribute('data-server-drawn', 'en-GB');
  const basicInfo = page
    .getByRole('region', { name: 'Tasks to complete' })
    .getByRole('button', { name: 'Add Basic info' });
  await expect(basicInfo).toBeEnabled();
  // Hydrated without an error. (The location page before it asks for map tiles at an address no browser may
  // reach, on purpose: those requests fail, and may still be reported as this page starts.)
  expect(errors.filter((error) => !error.includes('net::ERR_UNSAFE_PORT'))).toEqual([]);
  await basicInfo.click();
  await expect(page).toHaveURL(/\/propertyOnboard\/task\/details\?.*\btask=basic_info\b/);
  await expect(page.getByRole('heading', { name: 'Basic info' })).toBeVisible();
});

test("a signed-in owner's dashboard comes drawn by the server, is hydrated without an error and works", async ({
  page,
  request,
}) => {
  await signUp(page, request);
  await addHotel(page, 'Drawn Lodge');
  const cookies = (await page.context().cookies())
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join('; ');
  const html = await (
    await request.get('/propertyOnboard/dashboard', { headers: { cookie: cookies } })
  ).text();
  expect(html).toContain('data-server-drawn="en-GB"');
  expect(html).toContain('Drawn Lodge');
  const errors = pageErrors(page);
  await page.goto('/propertyOnboard/dashboard');
  await expect(page.locator('#root')).toHaveAttribute('data-server-drawn', 'en-GB');
  const card = page.getByRole('article', { name: 'Drawn Lodge' });
  await expect(card.getByText('In Progress')).toBeVisible();
  const more = card.getByRole('button', { name: 'More' });
  await expect(more).toBeEnabled();
  expect(errors.filter((error) => !error.includes('net::ERR_UNSAFE_PORT'))).toEqual([]);
  await more.click();
  await expect(page.getByRole('menuitem', { name: 'Copy Lead ID' })).toBeVisible();
});

test('the login page at its top-level address is drawn for that address and hydrated without an error', async ({
  page,
}) => {
  const errors = pageErrors(page);
  await page.goto('/login');
  await expect(page.locator('#root')).toHaveAttribute('data-server-drawn', 'en-GB');
  await expect(page.getByLabel('Mobile number')).toBeEnabled();
  await page.getByLabel('Mobile number').fill('12345');
  await page.getByRole('button', { name: 'Get OTP' }).click();
  await expect(page.getByText('Please enter the correct phone number').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('a language kept on the device other than the one drawn: the page is drawn afresh in it', async ({
  page,
}) => {
  const errors = pageErrors(page);
  await page.addInitScript(() => localStorage.setItem('language', 'hi'));
  await page.goto('/propertyOnboard/sign_up');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await expect(page.getByRole('heading', { name: 'अपनी प्रॉपर्टी लिस्ट करें' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'List your property' })).toHaveCount(0);
  await expect(page.locator('#root fieldset[disabled]')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test.describe('in German', () => {
  test.use({ locale: 'de-DE' });

  test('the page comes drawn in German, with the texts it carries, and is hydrated with the same', async ({
    page,
  }) => {
    const errors = pageErrors(page);
    await page.goto('/propertyOnboard/sign_up');
    await expect(page.locator('#root')).toHaveAttribute('data-server-drawn', 'de');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: 'Unterkunft eintragen' })).toBeVisible();
    // The country box's label is one of the client's own texts (widgets.input.country), not the screen's.
    await expect(page.getByLabel('Land', { exact: true })).toBeEnabled();
    await expect(page.locator('#root fieldset[disabled]')).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});

test.describe('in Arabic', () => {
  test.use({ locale: 'ar' });

  test('the page comes drawn right to left and is hydrated once its right-to-left styles are loaded', async ({
    page,
  }) => {
    const errors = pageErrors(page);
    await page.goto('/propertyOnboard/sign_up');
    await expect(page.locator('#root')).toHaveAttribute('data-server-drawn', 'ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { name: 'أدرج عقارك' })).toBeVisible();
    await expect(page.locator('#root fieldset[disabled]')).toHaveCount(0);
    // The field's label is at its right edge, as the right-to-left styles put it.
    const field = page.locator('#phone-number');
    await expect(field).toBeEnabled();
    const label = await page.locator('#phone-number-label').boundingBox();
    const box = await field.locator('xpath=..').boundingBox();
    expect(label!.x + label!.width).toBeGreaterThan(box!.x + box!.width / 2);
    expect(errors).toEqual([]);
  });
});
