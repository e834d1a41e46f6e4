import { expect, test } from '@playwright/test';
import { addHotel, signUp } from './helpers';

// Issue 14 item 4: the server unavailable on save (here one answer replaced by a 503, as the BFF gives while
// its database is unreachable) shows the error card with Retry; nothing typed is lost, and Retry saves it
// through the real server once it answers again.
test('a 503 on save shows the error card with Retry, keeps what was typed, and Retry saves it', async ({
  page,
  request,
}) => {
  await signUp(page, request);
  const id = await addHotel(page, 'Lighthouse Lodge');
  await page.goto(`/propertyOnboard/task/details?property_unique_id=${id}&task=basic_info`);
  await page.getByLabel('Description').fill('Nine rooms under the old lighthouse.');
  await page.getByLabel('Total rooms').fill('9');
  await page.getByLabel('Available floors').fill('2');
  await page.getByLabel('Front desk phone number').fill('98765 43210');
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();

  // Only the final save (not a draft save) of this section is answered 503, once.
  let refused = 0;
  const section = `/hms_ms/api/v1/onboard/leads/${id}/sections/basic_info`;
  await page.route(
    (url) => url.pathname === section,
    async (route) => {
      const body = route.request().postDataJSON() as { draft?: boolean } | null;
      if (route.request().method() !== 'PUT' || body?.draft !== false || refused > 0) return route.fallback();
      refused += 1;
      return route.fulfill({
        status: 503,
        headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '5' },
        body: JSON.stringify({
          success: false,
          error: { code: 'ONB_DATABASE_UNAVAILABLE', message: 'Internal Server Error', retry_after_s: 5 },
        }),
      });
    },
  );
  await page.getByRole('button', { name: 'Save and continue' }).click();

  const card = page.getByRole('alert').filter({ hasText: 'Internal Server Error' });
  await expect(card).toBeVisible();
  expect(refused).toBe(1);
  await expect(page).toHaveURL(new RegExp(`task=basic_info$`));
  await expect(page.getByLabel('Description')).toHaveValue('Nine rooms under the old lighthouse.');
  await expect(page.getByLabel('Total rooms')).toHaveValue('9');
  await expect(page.getByLabel('Available floors')).toHaveValue('2');

  await card.getByRole('button', { name: 'Retry' }).click();
  await expect(page).toHaveURL(new RegExp(`/task\\?property_unique_id=${id}$`));
  await expect(page.getByText('11% complete')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Completed Tasks' }).getByText('Basic info')).toBeVisible();
});
