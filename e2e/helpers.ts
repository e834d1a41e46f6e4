import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { startServer, type BenchServer } from '../bench/server';

/** A fresh, valid Indian mobile number: national form and E.164. */
export function uniquePhone(): { national: string; e164: string } {
  const rest = String(Math.floor(Math.random() * 1e9)).padStart(9, '0');
  const national = `9${rest}`;
  return { national, e164: `+91${national}` };
}

/** An Indian number as the app shows it (libphonenumber-js' international format): '+91 98765 43210'. */
export function shownPhone(phone: { national: string }): string {
  return `+91 ${phone.national.slice(0, 5)} ${phone.national.slice(5)}`;
}

/**
 * Reads the newest code sent to `to` (an E.164 number or an e-mail address) from the development outbox
 * (GET /__dev/outbox), skipping `after` (a code already used); sign-in codes have 6 digits, the property
 * flow's contact codes 4 (SPEC §5).
 */
export async function readCode(
  request: APIRequestContext,
  to: string,
  after?: string,
  digits = 6,
): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/__dev/outbox');
        const entries = (await res.json()) as { to: string; code: string; sent_at: string }[];
        const entry = entries.find((e) => e.to === to && (!after || e.code !== after));
        code = entry?.code;
        return code;
      },
      { message: `a code sent to ${to}` },
    )
    .toMatch(new RegExp(`^\\d{${digits}}$`));
  return code!;
}

/** On the sign-up or login screen: types the number, asks for a code and returns the code sent. */
export async function requestCode(page: Page, request: APIRequestContext, phone: string, e164: string) {
  await page.getByLabel('Mobile number').fill(phone);
  await page.getByRole('button', { name: 'Get OTP' }).click();
  await expect(page.getByLabel('One-time code')).toBeVisible();
  return readCode(request, e164);
}

/**
 * Signs a new owner up from the sign-up page. A new owner has no property yet, so the property
 * middleware page sends them to adding one (SPEC §2).
 */
export async function signUp(page: Page, request: APIRequestContext) {
  const phone = uniquePhone();
  await page.goto('/propertyOnboard/sign_up');
  const code = await requestCode(page, request, phone.national, phone.e164);
  await page.getByLabel('One-time code').fill(code);
  await expect(page).toHaveURL(/\/propertyOnboard\/add$/);
  return phone;
}

/**
 * Signs an existing owner in from the login page with a new code (the one of their last sign-in is skipped),
 * as on another device, and waits until the app has left the login page.
 */
export async function logIn(
  page: Page,
  request: APIRequestContext,
  phone: { national: string; e164: string },
) {
  const previous = await readCode(request, phone.e164);
  await page.goto('/propertyOnboard/login');
  await page.getByLabel('Mobile number').fill(phone.national);
  await page.getByRole('button', { name: 'Get OTP' }).click();
  await expect(page.getByLabel('One-time code')).toBeVisible();
  const code = await readCode(request, phone.e164, previous);
  await page.getByLabel('One-time code').fill(code);
  await expect(page).not.toHaveURL(/\/login$/);
}

/** Taps the option `name` of the choice `group`, as an owner taps its card or chip. */
export async function choose(page: Page, group: string, name: string) {
  const radios = page.getByRole('radiogroup', { name: group });
  await radios.getByText(name, { exact: true }).click();
  await expect(radios.getByRole('radio', { name })).toBeChecked();
}

/**
 * Adds a property named `name` of `type` and `subType` (as the owner reads them) from the add-property page
 * and waits for the next step, the property location; returns its property_unique_id.
 */
export async function addProperty(page: Page, name: string, type: string, subType: string): Promise<string> {
  await page.getByLabel('Property name').fill(name);
  await choose(page, 'Property type', type);
  await choose(page, 'Property sub type', subType);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(
    /\/propertyOnboard\/task\/details\?task=address&property_unique_id=PO[0-9A-Z]{10}$/,
  );
  await expect(page.getByRole('heading', { name: 'Property location' })).toBeVisible();
  return new URL(page.url()).searchParams.get('property_unique_id')!;
}

/**
 * Adds a boutique hotel named `name` from the add-property page and waits for the next step, the property
 * location; returns its property_unique_id.
 */
export async function addHotel(page: Page, name: string): Promise<string> {
  return addProperty(page, name, 'Hotel', 'Boutique hotel');
}

/** The owner's phone reports this position: central Gurgaon (SPEC §9 default map area). */
export const GURGAON = { latitude: 28.4601, longitude: 77.02635 };

/** On the location step: the owner is at the property; the phone's position places the pin and fills the city. */
export async function pinFromPhone(page: Page) {
  await choose(page, 'Are you at the property now?', 'I am at the property');
  await expect(page.getByText('28.460100, 77.026350')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'City' })).toHaveValue('Gurgaon');
}

/** Real camera photographs from Debian's mate-backgrounds (installed by .ci/ensure-test-photos.sh). */
export const PHOTOS = process.env.TEST_PHOTOS_DIR ?? '/usr/share/backgrounds/mate';
/** The path of the photograph `name` (relative to {@link PHOTOS}). */
export const photo = (name: string) => `${PHOTOS}/${name}`;

/** The photo uploader of one category, found by its title as the owner reads it. */
export const photoSection = (page: Page, title: string) =>
  page.getByRole('region', { name: title, exact: true });

/** Picks `files` in the photo category's uploader and waits until each is accepted (30 s per batch). */
export async function uploadPhotos(page: Page, title: string, files: string[]) {
  const region = photoSection(page, title);
  await region.getByLabel('Add photos').setInputFiles(files);
  await expect(region.getByText('Accepted', { exact: true })).toHaveCount(files.length, { timeout: 30_000 });
}

/** A fresh e-mail address for one test run (the outbox lists codes by address). */
export const newEmail = (who: string) =>
  `${who}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

/** The KYC verification widget of the e-mail or the phone, as a screen reader names it. */
export const verification = (page: Page, channel: 'e-mail address' | 'phone number') =>
  page.getByRole('group', { name: `Verification of your ${channel}` });

/** On the KYC screen: types `email`, asks for a code and enters the 4-digit code read from the development outbox. */
export async function verifyEmail(page: Page, request: APIRequestContext, email: string) {
  await page.getByRole('textbox', { name: 'E-mail address', exact: true }).fill(email);
  const group = verification(page, 'e-mail address');
  await group.getByRole('button', { name: 'Verify (e-mail address)' }).click();
  await expect(
    group.getByRole('paragraph').filter({ hasText: `We sent a 4-digit code to ${email}` }),
  ).toBeVisible();
  const code = await readCode(request, email, undefined, 4);
  // The code field submits on its own once the fourth digit is in.
  await group.getByLabel('Verification code').fill(code);
}

/** The staff token of the end-to-end server (e2e/analytics.spec.ts reads the funnel and error groups). */
export const E2E_STAFF_TOKEN = 'e2e-staff-token-4b9d21';

/**
 * From the next page load on, marks `<html data-saw-placeholder>` as soon as a loading placeholder
 * (`aria-busy="true"`: the screen's skeleton, a widget's whose code is on its way) is in the page. A page that
 * carries its screen draws it whole in its first paint (issue 13 item 4), so it never gets the mark.
 */
export async function watchPlaceholders(page: Page) {
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.querySelector('[aria-busy="true"]')) document.documentElement.dataset.sawPlaceholder = '';
    }).observe(document, { childList: true, subtree: true });
  });
}

/**
 * Starts a BFF of its own for a spec that needs settings the shared server does not have (VAPID keys, a
 * tracing collector…), on `port`, with `env` over what every end-to-end server has: NODE_ENV test, no rate
 * limit and no load shedding. Shedding is off as on the shared server (playwright.config.ts): two browsers and
 * the servers share CI's 2 cores, and a second of event-loop delay would shed a page load as a 503 JSON answer
 * the test never recovers from (seen on the sign-up page of reminders.spec.ts).
 */
export function startOwnServer(port: number, env: Record<string, string>): Promise<BenchServer> {
  return startServer(port, {
    NODE_ENV: 'test',
    RATE_LIMIT_MAX: '0',
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
}
