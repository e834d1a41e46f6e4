import { expect, test } from '@playwright/test';
import { addHotel, shownPhone, signUp } from './helpers';

test('Finish later on the checklist opens the exit screen: stay goes back, leave goes to My Properties', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signUp(page, request);
  const id = await addHotel(page, 'Harbour Lights');
  await page.goto(`/propertyOnboard/task?property_unique_id=${id}`);
  await page.getByRole('button', { name: 'Finish later' }).click();

  await expect(page).toHaveURL(new RegExp(`/propertyOnboard/exit\\?property_unique_id=${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Leave for now?' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: /^Listing \d+% complete$/ })).toBeVisible();
  // The footer tabs are hidden here (like every step of the flow).
  await expect(page.getByRole('navigation').filter({ hasText: 'Account' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Continue listing' }).click();
  await expect(page).toHaveURL(new RegExp(`/propertyOnboard/task\\?property_unique_id=${id}$`));
  await page.getByRole('button', { name: 'Finish later' }).click();
  await page.getByRole('button', { name: 'Go to My Properties' }).click();
  await expect(page).toHaveURL(/\/propertyOnboard\/dashboard$/);
  await expect(page.getByRole('article', { name: 'Harbour Lights' })).toBeVisible();
});

test('360 login names the number to log in with; 360 completion of an unpublished lead goes to its review', async ({
  page,
  request,
}) => {
  const phone = await signUp(page, request);
  const id = await addHotel(page, 'Cedar Point');
  await page.goto(`/propertyOnboard/360/login?property_unique_id=${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Log in to 360' })).toBeVisible();
  await expect(page.getByText(shownPhone(phone))).toBeVisible();
  await page.getByRole('button', { name: 'Go to My Properties' }).click();
  await expect(page).toHaveURL(/\/propertyOnboard\/dashboard$/);

  await page.goto(`/propertyOnboard/360/completion?property_unique_id=${id}`);
  await expect(page).toHaveURL(new RegExp(`/propertyOnboard/review\\?property_unique_id=${id}$`));
});
