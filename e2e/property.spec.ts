import { devices, expect, test, type Page } from '@playwright/test';
import { signUp } from './helpers';

/** Taps the option `name` of the choice `group`, as an owner taps its card or chip. */
async function choose(page: Page, group: string, name: string) {
  const radios = page.getByRole('radiogroup', { name: group });
  await radios.getByText(name, { exact: true }).click();
  await expect(radios.getByRole('radio', { name })).toBeChecked();
}

/** Adds a hotel from the add-property page and waits for its checklist. */
async function addHotel(page: Page, name: string): Promise<string> {
  await page.getByLabel('Property name').fill(name);
  await choose(page, 'Property type', 'Hotel');
  await choose(page, 'Property sub type', 'Boutique hotel');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/propertyOnboard\/task\?property_unique_id=PO[0-9A-Z]{10}$/);
  return new URL(page.url()).searchParams.get('property_unique_id')!;
}

test('an owner adds a property, fills basic info with drafts kept across a reload, and completes the task', async ({
  page,
  request,
}) => {
  await signUp(page, request);
  const id = await addHotel(page, 'Sea View Residency');

  await expect(page.getByRole('heading', { name: 'Sea View Residency' })).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
  await expect(page.getByText('0% complete')).toBeVisible();
  await page.getByRole('button', { name: 'Add' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/task/details\\?property_unique_id=${id}&task=basic_info$`));

  // The name given when the property was added is already there.
  await expect(page.getByLabel('Property name')).toHaveValue('Sea View Residency');
  await page.getByLabel('Description').fill('Twelve sea-facing rooms above the old harbour.');
  await page.getByLabel('Total rooms').fill('24');
  await page.getByLabel('Available floors').fill('3');
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();

  // Nothing typed is lost on reload.
  await page.reload();
  await expect(page.getByLabel('Description')).toHaveValue('Twelve sea-facing rooms above the old harbour.');
  await expect(page.getByLabel('Total rooms')).toHaveValue('24');
  await expect(page.getByLabel('Available floors')).toHaveValue('3');

  await page.getByLabel('Front desk phone number').fill('98765 43210');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page).toHaveURL(new RegExp(`/task\\?property_unique_id=${id}$`));
  await expect(page.getByText('11% complete')).toBeVisible();
  const completed = page.getByRole('region', { name: 'Completed Tasks' });
  await expect(completed.getByText('Basic info')).toBeVisible();
  await expect(completed.getByRole('button', { name: 'Edit' })).toBeVisible();

  // The property middleware page now sends the owner to this checklist.
  await page.goto('/propertyOnboard');
  await expect(page).toHaveURL(new RegExp(`/task\\?property_unique_id=${id}$`));
});

test('another owner cannot open a property that is not theirs', async ({ browser, page, request }) => {
  await signUp(page, request);
  const id = await addHotel(page, 'Private Lodge');
  const other = await browser.newContext({ ...devices['Pixel 7'] });
  const stranger = await other.newPage();
  await signUp(stranger, request);
  const res = await stranger.request.get(`/hms_ms/api/v1/onboard/leads/${id}`);
  expect(res.status()).toBe(404);
  expect(JSON.stringify(await res.json())).not.toContain('Private Lodge');
  await other.close();
});
