import { expect, test, type Page } from '@playwright/test';

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
