import { expect, test, type Page } from '@playwright/test';
import { signUp, shownPhone } from './helpers';

/**
 * Sign-in through Google, Facebook and Apple against a real OpenID Provider standing in for each
 * (e2e/social-stand-ins.ts, started by playwright.config.ts), and the refusals: forged state, replayed code,
 * wrong nonce, unverified e-mail (issue 11 item 2).
 */

// Each test walks one or two full provider round trips (two servers, the provider's pages).
test.describe.configure({ timeout: 60_000 });

const OIDC = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1000}`;
let counter = 0;
const uniqueEmail = () => `owner-${Date.now()}-${(counter += 1)}@example.com`;

/** At the stand-in's sign-in page: types the e-mail, sets the 'E-mail verified' box, signs in. */
async function signInAtProvider(page: Page, email: string, verified = true) {
  await expect(page.getByRole('heading', { name: 'Stand-in provider sign-in' })).toBeVisible();
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('E-mail verified').setChecked(verified);
  await page.getByRole('button', { name: 'Sign in and allow' }).click();
}

/** Rewrites one parameter of the authorization request on its way to the provider. */
async function tamperAuthorization(page: Page, name: string, value: string) {
  await page.route(`${OIDC}/auth?**`, (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set(name, value);
    return route.continue({ url: url.href });
  });
}

const refused = (page: Page, text: string | RegExp) => expect(page.getByRole('alert')).toContainText(text);

test('a new owner signs in with Google and lands on the page they wanted', async ({ page }) => {
  const email = uniqueEmail();
  await page.goto('/propertyOnboard/account');
  await expect(page).toHaveURL(/\/propertyOnboard\/sign_up$/);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(/\/propertyOnboard\/account$/);
  await expect(page.getByText(email)).toBeVisible();
  // The code is not left in the address bar.
  expect(page.url()).not.toContain('code=');
});

test('Apple returns by a form POST and signs the owner in', async ({ page }) => {
  await page.goto('/propertyOnboard/login');
  await page.getByRole('button', { name: 'Continue with Apple' }).click();
  await signInAtProvider(page, uniqueEmail());
  await expect(page.getByRole('heading', { name: 'Introduce your property' })).toBeVisible();
});

test('a forged state is refused', async ({ page }) => {
  await tamperAuthorization(page, 'state', 'forged-state-0123456789abcdefghijklmnopqrstuvwxyz');
  await page.goto('/propertyOnboard/sign_up');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await signInAtProvider(page, uniqueEmail());
  await refused(page, 'Signing in with Google did not work. Please try again.');
  await page.getByRole('button', { name: 'Back to sign-in' }).click();
  await expect(page).toHaveURL(/\/propertyOnboard\/login$/);
});

test('an ID token for another nonce is refused', async ({ page }) => {
  await tamperAuthorization(page, 'nonce', 'another-nonce-0123456789abcdefghijklmnopqrstuvwxyz');
  await page.goto('/propertyOnboard/sign_up');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await signInAtProvider(page, uniqueEmail());
  await refused(page, 'Signing in with Google did not work. Please try again.');
  const state = await page.request.get('/hms_ms/api/v2/sign_in');
  expect((await state.json()).data.is_logged_in).toBe(false);
});

test('a replayed code is refused', async ({ page }) => {
  await page.goto('/propertyOnboard/sign_up');
  const returned = page.waitForRequest(/\/propertyOnboard\/social_login\/google\?.*code=/);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await signInAtProvider(page, uniqueEmail());
  const returnUrl = (await returned).url();
  await expect(page.getByRole('heading', { name: 'Introduce your property' })).toBeVisible();
  await page.goto(returnUrl);
  await refused(page, 'Signing in with Google did not work. Please try again.');
});

test('an unverified e-mail of an existing owner is refused, and the owner is asked to link from Account', async ({
  page,
}) => {
  const email = uniqueEmail();
  await page.goto('/propertyOnboard/sign_up');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await signInAtProvider(page, email);
  await expect(page.getByRole('heading', { name: 'Introduce your property' })).toBeVisible();

  await page.context().clearCookies();
  await page.goto('/propertyOnboard/login');
  await page.getByRole('button', { name: 'Continue with Facebook' }).click();
  await signInAtProvider(page, email, false);
  await refused(
    page,
    'Your Facebook e-mail address is not verified. Please sign in another way first, then link Facebook from Account.',
  );
});

test('an owner links Google from Account, then signs in with it', async ({ page, request }) => {
  const phone = await signUp(page, request);
  await page.goto('/propertyOnboard/account');
  await page.getByRole('button', { name: 'Link Google' }).click();
  // An address Google did not verify links only this way: from a signed-in owner.
  const email = uniqueEmail();
  await signInAtProvider(page, email, false);
  await expect(page).toHaveURL(/\/propertyOnboard\/account$/);
  await expect(page.getByText('Google is linked to your account')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Link Google' })).toHaveCount(0);

  await page.context().clearCookies();
  await page.goto('/propertyOnboard/login');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await signInAtProvider(page, email, false);
  await expect(page).not.toHaveURL(/social_login/);
  await page.goto('/propertyOnboard/account');
  await expect(page.getByText(shownPhone(phone))).toBeVisible();
});

/**
 * Truecaller (issue 11 item 3, SPEC §4, §9): the page stands in for the phone — Truecaller's sheet takes the
 * focus when the deep link opens and gives it back when it closes — and the test stands in for Truecaller's
 * server, calling the app back with a token for the stand-in profile endpoint (e2e/social-stand-ins.ts).
 */
test.describe('Truecaller', () => {
  const TRUECALLER_PROFILE = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1001}/v1/default`;

  /** The app opens when the deep link is asked for (`appInstalled`), i.e. the page loses the focus. */
  const phone = async (page: Page, appInstalled: boolean) => {
    await page.addInitScript((installed) => {
      const w = window as unknown as { __focused: boolean };
      w.__focused = true;
      document.hasFocus = () => w.__focused;
      const original = window.fetch.bind(window);
      window.fetch = async (...args: Parameters<typeof fetch>) => {
        const answer = await original(...args);
        if (
          installed &&
          String(args[0] instanceof Request ? args[0].url : args[0]).includes('/truecaller/request')
        )
          w.__focused = false;
        return answer;
      };
    }, appInstalled);
  };
  const closeSheet = (page: Page) =>
    page.evaluate(() => {
      (window as unknown as { __focused: boolean }).__focused = true;
    });

  test('signs in with the number Truecaller verified', async ({ page }) => {
    await phone(page, true);
    await page.goto('/propertyOnboard/sign_up');
    const asked = page.waitForResponse('**/hms_ms/api/v1/users/truecaller/request');
    await page.getByRole('button', { name: 'Continue with Truecaller' }).click();
    const nonce = ((await (await asked).json()) as { data: { request_nonce: string } }).data.request_nonce;
    await expect(page.getByText('Confirm in Truecaller…')).toBeVisible();
    const digits = `9198${String(Date.now() % 10_000_000).padStart(7, '0')}1`;
    const called = await page.request.post('/hms_ms/api/v1/users/truecaller/callback', {
      data: { requestId: nonce, accessToken: `token-${digits}`, endpoint: TRUECALLER_PROFILE },
    });
    expect(called.status()).toBe(204);
    await closeSheet(page);
    await expect(page.getByRole('heading', { name: 'Introduce your property' })).toBeVisible();
    await page.goto('/propertyOnboard/account');
    // Shown in the international format (issue 12 item 4).
    await expect(page.getByText(shownPhone({ national: digits.slice(2) }))).toBeVisible();
  });

  test('falls back to the phone code when Truecaller is not installed', async ({ page }) => {
    await phone(page, false);
    await page.goto('/propertyOnboard/sign_up');
    await page.getByRole('button', { name: 'Continue with Truecaller' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Please sign in with a one-time code' }),
    ).toBeVisible();
    await expect(page.getByLabel('Mobile number')).toBeVisible();
  });

  test("falls back to the phone code for 'use another number'", async ({ page }) => {
    await phone(page, true);
    await page.goto('/propertyOnboard/sign_up');
    const asked = page.waitForResponse('**/hms_ms/api/v1/users/truecaller/request');
    await page.getByRole('button', { name: 'Continue with Truecaller' }).click();
    const nonce = ((await (await asked).json()) as { data: { request_nonce: string } }).data.request_nonce;
    await page.request.post('/hms_ms/api/v1/users/truecaller/callback', {
      data: { requestId: nonce, status: 'used_another_number' },
    });
    await closeSheet(page);
    await expect(
      page.getByRole('status').filter({ hasText: 'Please sign in with a one-time code' }),
    ).toBeVisible();
    const state = await page.request.get('/hms_ms/api/v2/sign_in');
    expect(((await state.json()) as { data: { is_logged_in: boolean } }).data.is_logged_in).toBe(false);
  });
});
