import { expect, test, type Locator, type Page } from '@playwright/test';
import { readCode, uniquePhone } from './helpers';

/**
 * An owner whose phone starts the app in Arabic (issue 12 items 3, 4 and 5), on the mobile profile: the
 * language chooser, phone numbers inside Arabic text, and recovering from a wrong code by typing.
 */
test.use({ locale: 'ar' });
// Each test goes through several full page loads and language switches.
test.describe.configure({ timeout: 120_000 });

/** Where the first and the last character of `text` are drawn inside `element` (x of their boxes, px). */
async function drawnEnds(element: Locator, text: string): Promise<{ first: number; last: number }> {
  return element.evaluate((node, wanted) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = n.textContent!.indexOf(wanted);
      if (at < 0) continue;
      const box = (offset: number) => {
        const range = document.createRange();
        range.setStart(n, offset);
        range.setEnd(n, offset + 1);
        return range.getBoundingClientRect();
      };
      return { first: box(at).left, last: box(at + wanted.length - 1).left };
    }
    throw new Error(`"${wanted}" is not drawn`);
  }, text);
}

/** The phone number `e164` ('+919876543210') as the app shows it: '+91 98765 43210'. */
const shown = (e164: string) => `+91 ${e164.slice(3, 8)} ${e164.slice(8)}`;

/** Expects the number to be drawn as one left-to-right run: '+' at the left, the last digit at the right. */
async function expectLeftToRight(page: Page, e164: string) {
  const number = page.locator('bdi', { hasText: shown(e164) }).first();
  await expect(number).toBeVisible();
  const { first, last } = await drawnEnds(number, shown(e164));
  expect(first).toBeLessThan(last);
}

/** The compact language chooser of the sign-in screens, whatever language it names. */
const chooser = (page: Page) => page.getByRole('button', { name: /current language|اللغة الحالية/ });

test('the chooser follows the language, both ways, over a reload; country names follow (item 3)', async ({
  page,
}) => {
  await page.goto('/propertyOnboard/sign_up');
  await expect(page.getByRole('heading', { name: 'أدرج عقارك' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(chooser(page)).toHaveText('العربية');
  await expect(page.getByRole('combobox').locator('option[value="IN"]')).toHaveText(/^الهند/);

  await chooser(page).click();
  await expect(page.getByRole('menuitemradio', { name: 'العربية' })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('heading', { name: 'List your property' })).toBeVisible();
  await expect(chooser(page)).toHaveAccessibleName('Change language, current language: English');
  await expect(page.getByRole('combobox').locator('option[value="IN"]')).toHaveText(/^India/);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'List your property' })).toBeVisible({ timeout: 30_000 });
  await expect(chooser(page)).toHaveText('English');

  await chooser(page).click();
  await page.getByRole('menuitemradio', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(chooser(page)).toHaveAccessibleName('تغيير اللغة، اللغة الحالية: العربية');
  await chooser(page).click();
  await expect(page.getByRole('menuitemradio', { name: 'العربية' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute('aria-checked', 'false');
});

test('a wrong code is corrected by typing; the number reads left to right on the code screen and Account (items 4, 5)', async ({
  page,
  request,
}) => {
  const phone = uniquePhone();
  await page.goto('/propertyOnboard/sign_up');
  await expect(page.getByRole('heading', { name: 'أدرج عقارك' })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('رقم الجوال').fill(phone.national);
  await page.getByRole('button', { name: 'احصل على رمز التحقق' }).click();
  const code = await readCode(request, phone.e164);
  const box = page.getByLabel('رمز التحقق لمرة واحدة');
  await expect(box).toBeVisible();
  await expectLeftToRight(page, phone.e164);

  const wrong = code === '000000' ? '111111' : '000000';
  await box.pressSequentially(wrong);
  await expect(page.getByText('رمز التحقق غير صحيح')).toBeVisible();
  await expect(page).toHaveURL(/sign_up$/);
  // The owner simply types the right code over the wrong one, as they would on a phone.
  await box.pressSequentially(code.slice(0, 1));
  await expect(page.getByText('رمز التحقق غير صحيح')).toHaveCount(0);
  await box.pressSequentially(code.slice(1));
  await expect(page).toHaveURL(/\/propertyOnboard\/add$/);

  await page.goto('/propertyOnboard/account');
  await expectLeftToRight(page, phone.e164);
});

test('after too many wrong codes Verify is off until a new code is sent (item 5)', async ({
  page,
  request,
}) => {
  const phone = uniquePhone();
  await page.goto('/propertyOnboard/sign_up');
  await page.getByLabel('رقم الجوال').fill(phone.national);
  await page.getByRole('button', { name: 'احصل على رمز التحقق' }).click();
  const code = await readCode(request, phone.e164);
  const box = page.getByLabel('رمز التحقق لمرة واحدة');
  const verify = page.getByRole('button', { name: 'تحقق وتابع' });
  const wrong = code === '000000' ? '111111' : '000000';
  await box.pressSequentially(wrong);
  await expect(page.getByText('رمز التحقق غير صحيح')).toBeVisible();
  await expect(verify).toBeEnabled();
  for (let attempt = 0; attempt < 10; attempt += 1) {
    if (await page.getByText('محاولات خاطئة كثيرة. يُرجى طلب رمز جديد.').isVisible()) break;
    await verify.click();
    await expect(page.getByText(/رمز التحقق غير صحيح|محاولات خاطئة كثيرة/)).toBeVisible();
  }
  await expect(page.getByText('محاولات خاطئة كثيرة. يُرجى طلب رمز جديد.')).toBeVisible();
  await expect(verify).toBeDisabled();
});
