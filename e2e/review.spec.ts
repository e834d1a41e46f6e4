import { expect, test } from '@playwright/test';
import { addHotel, choose, signUp } from './helpers';

test('the checklist opens the review, which lists what is missing with links and keeps Go Live! disabled', async ({
  page,
  request,
}) => {
  await signUp(page, request);
  const id = await addHotel(page, 'Sea Breeze Review House');
  await page.getByRole('button', { name: 'Back to checklist' }).click();
  await page.getByRole('button', { name: 'Preview and Publish' }).click();
  await expect(page).toHaveURL(new RegExp(`/review\\?property_unique_id=${id}$`));

  await expect(page.getByRole('heading', { name: 'Sea Breeze Review House', level: 1 })).toBeVisible();
  await expect(page.getByText('This is how guests will see your property.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Before you can publish' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Live!' })).toBeDisabled();

  // One card per task with its status; an unfinished one offers to finish it.
  const contact = page.getByRole('article', { name: 'Contact info' });
  await expect(contact.getByText('To do', { exact: true })).toBeVisible();
  await expect(contact.getByRole('button', { name: 'Finish Contact info' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Complete', exact: true })).toHaveCount(0);

  // Each missing task links back to where it is done.
  await page.getByRole('button', { name: 'Contact info', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/task/details\\?property_unique_id=${id}&task=contact_info$`));
});

test('a holiday home is worded as the holiday-home variant: submitted for review, an expert reaches out', async ({
  page,
  request,
}) => {
  await signUp(page, request);
  await page.getByLabel('Property name').fill('Palm Grove Villa');
  await choose(page, 'Property type', 'Holiday home');
  await choose(page, 'Property sub type', 'Villa');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/task=address&property_unique_id=(PO[0-9A-Z]{10})$/);
  const id = new URL(page.url()).searchParams.get('property_unique_id')!;
  await page.goto(`/propertyOnboard/review?property_unique_id=${id}`);
  await expect(page.getByText('an expert will reach out to you')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit for review' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Go Live!' })).toHaveCount(0);
});
