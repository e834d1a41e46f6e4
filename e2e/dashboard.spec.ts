import { expect, test } from '@playwright/test';
import { addHotel, signUp, shownPhone } from './helpers';

test('an owner copies the lead id from the More menu and adds a referral code, refused first when unknown', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, request);
  const id = await addHotel(page, 'Lotus Court');
  // The Lead ID the owner sees on the checklist is what is copied (issue 12 item 6).
  await page.goto(`/propertyOnboard/task?property_unique_id=${id}`);
  const shown = (await page.getByText(/^Lead ID /).textContent())!.replace(/^Lead ID /, '').trim();
  expect(shown).not.toBe('');

  await page.goto('/propertyOnboard/dashboard');
  const card = page.getByRole('article', { name: 'Lotus Court' });
  await expect(card.getByText('In Progress')).toBeVisible();
  await card.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Copy Lead ID' }).click();
  await expect(page.getByText('Lead ID copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

  await card.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Add Referral' }).click();
  await expect(page).toHaveURL(new RegExp(`/referral\\?property_unique_id=${id}$`));
  await expect(page.getByRole('heading', { name: 'Referral' })).toBeVisible();
  await page.getByLabel('Referral code').fill('NOSUCHCODE');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(
    page.getByText('This referral code is not valid. Please check it and try again.'),
  ).toBeVisible();
  await page.getByLabel('Referral code').fill('oyoref100');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Priya Sharma')).toBeVisible();
  await page.getByRole('button', { name: 'Save referral code' }).click();
  await expect(page).toHaveURL(/\/propertyOnboard\/dashboard$/);
  await expect(page.getByText('Referral code saved')).toBeVisible();

  // The referral screen now shows the verified code, ready to be updated.
  await page.goto(`/propertyOnboard/referral?property_unique_id=${id}`);
  await expect(page.getByText('Referred by Priya Sharma')).toBeVisible();
  await expect(page.getByLabel('Referral code')).toHaveValue('OYOREF100');
  await expect(page.getByRole('button', { name: 'Update referral code' })).toBeVisible();
});

test('the Account tab shows the profile and the language, and the dashboard is empty for a new owner', async ({
  page,
  request,
}) => {
  const phone = await signUp(page, request);
  await page.goto('/propertyOnboard/dashboard');
  await expect(page.getByText('You have no Hotels associated')).toBeVisible();
  await page.getByRole('navigation').getByText('Account').click();
  await expect(page).toHaveURL(/\/propertyOnboard\/account$/);
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(page.getByText(shownPhone(phone))).toBeVisible();
  await expect(page.getByText('Not added yet')).toBeVisible();
  await expect(page.getByText('Language', { exact: true }).first()).toBeVisible();
});
