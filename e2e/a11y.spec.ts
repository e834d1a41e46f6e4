import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { addHotel, signUp } from './helpers';

/** axe's rules of issue 12 item 19 on the current page: headings in order, all content inside landmarks. */
export async function axeViolations(page: Page, rules: string[]) {
  const result = await new AxeBuilder({ page }).withRules(rules).analyze();
  return result.violations.map((v) => ({
    id: v.id,
    nodes: v.nodes.map((n) => n.target.join(' ')),
  }));
}

test('amenities, room categories and referral have headings in order; a popup leaves no content outside landmarks (issue 12 item 19)', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signUp(page, request);
  const id = await addHotel(page, 'Axe Court');

  for (const task of ['amenities', 'room_categories']) {
    await page.goto(`/propertyOnboard/task/details?property_unique_id=${id}&task=${task}`);
    await expect(page.getByRole('button', { name: 'Save and continue' })).toBeVisible();
    if (task === 'room_categories') await page.getByRole('button', { name: 'Add a room category' }).click();
    expect(await axeViolations(page, ['heading-order']), task).toEqual([]);
  }

  await page.goto(`/propertyOnboard/referral?property_unique_id=${id}`);
  await expect(page.getByRole('heading', { name: 'Referral' })).toBeVisible();
  await page.getByLabel('Referral code').fill('oyoref100');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Priya Sharma')).toBeVisible();
  expect(await axeViolations(page, ['heading-order']), 'referral').toEqual([]);

  // The More menu of the dashboard.
  await page.goto('/propertyOnboard/dashboard');
  await page.getByRole('article', { name: 'Axe Court' }).getByRole('button', { name: 'More' }).click();
  await expect(page.getByRole('menuitem', { name: 'Copy Lead ID' })).toBeVisible();
  expect(await axeViolations(page, ['region']), 'menu').toEqual([]);
  await page.keyboard.press('Escape');

  // A popup: the sign-out confirmation on Account.
  await page.goto('/propertyOnboard/account');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await axeViolations(page, ['region']), 'popup').toEqual([]);
});

test('labels show whole at 412 px and room fields are as high as the others (issue 12 item 15)', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 412, height: 915 });
  await signUp(page, request);
  const id = await addHotel(page, 'Label Court');
  const cut = async () =>
    page
      .locator('label')
      .evaluateAll((labels) =>
        labels
          .filter((l) => (l as HTMLElement).offsetParent !== null && l.scrollWidth > l.clientWidth + 1)
          .map((l) => l.textContent),
      );
  await page.goto(`/propertyOnboard/task/details?property_unique_id=${id}&task=basic_info`);
  await expect(page.getByLabel('Total rooms')).toBeVisible();
  expect(await cut()).toEqual([]);
  const other = (await page.getByLabel('Total rooms').locator('xpath=..').boundingBox())!.height;

  await page.goto(`/propertyOnboard/task/details?property_unique_id=${id}&task=room_categories`);
  await page.getByRole('button', { name: 'Add a room category' }).click();
  await expect(page.getByLabel('Number of rooms').first()).toBeVisible();
  expect(await cut()).toEqual([]);
  const room = (await page.getByLabel('Number of rooms').first().locator('xpath=..').boundingBox())!.height;
  expect(room).toBe(other);
});
