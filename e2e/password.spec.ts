import { devices, expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { newEmail, readCode, signUp } from './helpers';

// Each test signs up and signs in on two phones with argon2id hashing on the server: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

const GOOD = 'Harbour#Light42';
const NEW = 'Monsoon&Tide77';

/** Another phone, as a second device of the same owner (same base URL, same device profile). */
async function secondPhone(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL });
  return context.newPage();
}

/** Signs an owner up with an e-mail address and a password, verified with the code from the outbox. */
async function signUpByEmail(page: Page, request: APIRequestContext): Promise<string> {
  const email = newEmail('password');
  await page.goto('/propertyOnboard/login');
  await page.getByRole('button', { name: 'New here? Create an account with your e-mail' }).click();
  await expect(page).toHaveURL(/\/propertyOnboard\/sign_up\/email$/);
  await page.getByLabel(/^E-mail/).fill(email);
  await page.getByLabel(/^Password/).fill(GOOD);
  await page.getByLabel(/^Confirm the password/).fill(GOOD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(`Enter the 6-digit code sent to ${email}`)).toBeVisible();
  const code = await readCode(request, email);
  await page.getByLabel('One-time code').fill(code);
  await expect(page).toHaveURL(/\/propertyOnboard\/add$/);
  return email;
}

/** Signs in from the login view with the e-mail address and the password. */
async function signInByPassword(page: Page, email: string, password: string) {
  await page.getByRole('button', { name: 'Sign in with e-mail and password' }).click();
  await page.getByLabel(/^E-mail/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The newest reset link mailed to `email`, read from the development outbox. */
async function readResetLink(request: APIRequestContext, email: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        const entries = (await (await request.get('/__dev/outbox')).json()) as { to: string; text: string }[];
        const text = entries.find((e) => e.to === email && e.text.includes('reset-password'))?.text ?? '';
        link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(text)?.[0] ?? '';
        return link;
      },
      { message: `a reset link sent to ${email}` },
    )
    .toMatch(/reset-password\?token=/);
  return link;
}

test('an owner signs up with an e-mail verified by a code, then signs in with the password', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const email = await signUpByEmail(page, request);

  const other = await secondPhone(browser, baseURL);
  await other.goto('/propertyOnboard/login?continue=%2FpropertyOnboard%2Faccount');
  await signInByPassword(other, email, 'Wrong#Password1');
  await expect(other.getByText('Please enter the correct email ID and password').first()).toBeVisible();
  await other.getByLabel(/^Password/).fill(GOOD);
  await other.getByRole('button', { name: 'Show password' }).click();
  await expect(other.getByLabel(/^Password/)).toHaveAttribute('type', 'text');
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  // The continue target of the login view is followed once signed in (SPEC §4).
  await expect(other).toHaveURL(/\/propertyOnboard\/account$/);
  await other.context().close();
});

test('a forgotten password is reset with the link from the e-mail, once', async ({ page, request }) => {
  const email = await signUpByEmail(page, request);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());

  await page.goto('/propertyOnboard/login');
  await page.getByRole('button', { name: 'Sign in with e-mail and password' }).click();
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/propertyOnboard\/forgot-password-mail$/);
  await page.getByLabel(/^E-mail/).fill(email);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByText('If an account has this address, we have sent it a link.')).toBeVisible();

  const link = await readResetLink(request, email);
  await page.goto(link);
  await page.getByLabel(/^New password/).fill(NEW);
  await page.getByLabel(/^Confirm the password/).fill(NEW);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password has been changed. Please sign in again.')).toBeVisible();
  await expect(page).toHaveURL(/\/propertyOnboard\/login$/);

  await signInByPassword(page, email, NEW);
  await expect(page).not.toHaveURL(/\/login$/);

  // The link works once.
  const again = await request.put('/hms_ms/api/v1/users/password', {
    data: { token: new URL(link).searchParams.get('token'), password: GOOD, password_confirmation: GOOD },
  });
  expect(again.status()).toBe(400);
});

test('a forgotten password is reset by phone with a 6-digit code, ending the session', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const phone = await signUp(page, request);
  const signUpCode = await readCode(request, phone.e164);

  const other = await secondPhone(browser, baseURL);
  await other.goto('/forgot-password-phone');
  await other.getByLabel('Mobile number').fill(phone.national);
  // The sign-up code's resend cooldown (30 s per number) also holds this code back: ask again until it comes.
  let code = '';
  await expect
    .poll(
      async () => {
        if (await other.getByRole('button', { name: 'Edit number' }).isVisible())
          await other.getByRole('button', { name: 'Edit number' }).click();
        await other.getByRole('button', { name: 'Get OTP' }).click();
        await expect(other.getByLabel('One-time code')).toBeVisible();
        const entries = (await (await request.get('/__dev/outbox')).json()) as { to: string; code: string }[];
        code = entries.find((e) => e.to === phone.e164)?.code ?? '';
        return code !== signUpCode && /^\d{6}$/.test(code);
      },
      { timeout: 60_000, intervals: [5000] },
    )
    .toBe(true);
  await other.getByLabel('One-time code').fill(code);
  await other.getByLabel(/^New password/).fill(NEW);
  await other.getByLabel(/^Confirm the password/).fill(NEW);
  await other.getByRole('button', { name: 'Set new password' }).click();
  await expect(other.getByText('Your password has been changed. Please sign in again.')).toBeVisible();
  await other.context().close();

  // The first phone's session has ended (SPEC §4).
  await page.goto('/propertyOnboard/dashboard');
  await expect(page).toHaveURL(/\/propertyOnboard\/sign_up$/);
});

test('changing the password on Account signs out every device', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const email = await signUpByEmail(page, request);
  const other = await secondPhone(browser, baseURL);
  await other.goto('/propertyOnboard/login');
  await signInByPassword(other, email, GOOD);
  await expect(other).not.toHaveURL(/\/login$/);

  await page.goto('/propertyOnboard/account');
  await page.getByLabel(/^Current password/).fill(GOOD);
  await page.getByLabel(/^New password/).fill(NEW);
  await page.getByLabel(/^Confirm the password/).fill(NEW);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been changed. Please sign in again.')).toBeVisible();
  await expect(page).toHaveURL(/\/propertyOnboard\/sign_up$/);

  await other.goto('/propertyOnboard/account');
  await expect(other).toHaveURL(/\/propertyOnboard\/sign_up$/, { timeout: 15_000 });
  await other.context().close();

  await page.goto('/propertyOnboard/login');
  await signInByPassword(page, email, NEW);
  await expect(page).not.toHaveURL(/\/login$/);
});
