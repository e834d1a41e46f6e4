import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { renderIdCard } from '../bff/test-support/id-cards';
import {
  addProperty,
  choose,
  GURGAON,
  newEmail,
  photo,
  photoSection,
  pinFromPhone,
  signUp,
  uploadPhotos,
  verification,
  verifyEmail,
} from './helpers';

/**
 * The product's main acceptance test (issue 6): a new owner's whole journey in the real browser against the
 * real server, from a new number to the property published — every step through the screens, as an owner
 * taps them, with real photographs and a rendered ID card.
 */

test.use({ geolocation: GURGAON, permissions: ['geolocation'] });

/** A property name no other test uses, so 'Is this your property?' only meets what a test made. */
const uniqueName = (base: string) => `${base} ${Math.random().toString(36).slice(2, 7)}`;

/** The checklist of the property `id`, after a task has been saved. */
async function backOnChecklist(page: Page, id: string, task: string) {
  await expect(page).toHaveURL(new RegExp(`/propertyOnboard/task\\?property_unique_id=${id}$`));
  await expect(
    page.getByRole('region', { name: 'Completed Tasks' }).getByText(task, { exact: true }),
  ).toBeVisible();
}

/** Taps the 'Add' button of the pending task `task` on the checklist. */
async function openTask(page: Page, task: string) {
  await page
    .getByRole('region', { name: 'Tasks to complete' })
    .getByRole('button', { name: `Add ${task}` })
    .click();
}

/**
 * Every step from signing up to the review: location, basic info, contact info, amenities, room categories,
 * photos, KYC, terms of service and contract. Ends on the review with publishing allowed; returns the
 * property_unique_id.
 */
async function completeListing(
  page: Page,
  request: APIRequestContext,
  property: { name: string; type: string; subType: string },
): Promise<string> {
  await signUp(page, request);
  const id = await addProperty(page, property.name, property.type, property.subType);

  // Location: the owner is at the property.
  await pinFromPhone(page);
  await page.getByLabel('Building, street and number').fill('12 MG Road');
  await page.getByLabel('Postal code').fill('122001');
  await page.getByRole('button', { name: 'Confirm address' }).click();
  await backOnChecklist(page, id, 'Address');
  await expect(page.getByText('11% complete')).toBeVisible();

  await openTask(page, 'Basic info');
  await expect(page.getByLabel('Property name')).toHaveValue(property.name);
  await page.getByLabel('Description').fill('Ten bright rooms around a quiet courtyard, near the metro.');
  await page.getByLabel('Total rooms').fill('10');
  await page.getByLabel('Available floors').fill('2');
  await page.getByLabel('Front desk phone number').fill('98765 43210');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await backOnChecklist(page, id, 'Basic info');

  await openTask(page, 'Contact info');
  await page.getByLabel('Contact name').fill('Asha Rao');
  await page.getByLabel('E-mail').fill(newEmail('contact'));
  await page.getByLabel('Contact phone number').fill('98765 43211');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await backOnChecklist(page, id, 'Contact info');

  await openTask(page, 'Amenities');
  for (const name of ['Wi-Fi', 'Hot water', 'Clean linen and towels', 'Fire extinguisher', 'First-aid kit']) {
    await page.getByRole('checkbox', { name: new RegExp(`^${name}`) }).check();
  }
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await backOnChecklist(page, id, 'Amenities');

  await openTask(page, 'Room categories');
  await page.getByRole('button', { name: 'Add a room category' }).click();
  await page.getByLabel('Category name').first().fill('Deluxe');
  await page.getByLabel('Number of rooms').first().fill('6');
  await page.getByRole('button', { name: 'Add a room category' }).click();
  await page.getByLabel('Category name').nth(1).fill('Standard');
  await page.getByLabel('Number of rooms').nth(1).fill('4');
  await expect(page.getByText('10 of 10 rooms')).toBeVisible();
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await backOnChecklist(page, id, 'Room categories');
  await expect(page.getByText('55% complete')).toBeVisible();

  // Photos: every category's minimum, and a room photo of each room category.
  await openTask(page, 'Photos');
  await expect(page.getByRole('heading', { name: 'Photos', exact: true })).toBeVisible();
  await uploadPhotos(page, 'Building from outside', [photo('nature/Dune.jpg')]);
  await uploadPhotos(page, 'Reception and common areas', [photo('nature/Storm.jpg')]);
  await uploadPhotos(page, 'Bathrooms', [photo('nature/Wood.jpg')]);
  await uploadPhotos(page, 'Room photos: Deluxe', [photo('nature/Garden.jpg'), photo('nature/LadyBird.jpg')]);
  await uploadPhotos(page, 'Room photos: Standard', [photo('nature/TwoWings.jpg')]);
  await expect(
    page.getByText('You have added every photo needed. You can add more at any time.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Back to checklist' }).click();
  await backOnChecklist(page, id, 'Photos');

  // KYC: the sign-in number counts as verified; the e-mail is verified by code; a PAN card is recognised.
  await openTask(page, 'KYC');
  await expect(page.getByRole('heading', { name: 'KYC', exact: true })).toBeVisible();
  await page.getByLabel('Full name as on your ID').fill('Ravi Kumar Sharma');
  await expect(verification(page, 'phone number').getByLabel('Verified (phone number)')).toBeVisible();
  await verifyEmail(page, request, newEmail('kyc'));
  await expect(verification(page, 'e-mail address').getByLabel('Verified (e-mail address)')).toBeVisible();
  await page.getByLabel('Number of rooms').fill('10');
  // The number printed on the rendered PAN card: the KYC check compares the two.
  await page.getByRole('textbox', { name: 'PAN number', exact: true }).fill('ABCPS1234K');
  await choose(page, 'Does the business have a GSTIN?', 'No');
  await choose(page, 'ID type', 'PAN card');
  const document = page.getByRole('region', { name: 'Photo of your ID' });
  await document.getByLabel('Upload a photo').setInputFiles({
    name: 'pan-card.jpg',
    mimeType: 'image/jpeg',
    buffer: await renderIdCard('pan'),
  });
  await expect(document.getByText('Document recognised').first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Submit KYC' }).click();
  await expect(page.getByText('KYC details submitted')).toBeVisible();
  await backOnChecklist(page, id, 'KYC');

  // Terms of service: generate the contract, consent, accept.
  await openTask(page, 'Terms of service');
  await expect(page.getByRole('heading', { name: 'Terms of service', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Generate my contract' }).click();
  await expect(page.getByRole('button', { name: 'Open contract (PDF)' })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('checkbox', { name: 'I have read the contract and accept its terms' }).check();
  await page.getByRole('button', { name: 'Accept contract' }).click();
  await expect(page.getByText('Contract accepted')).toBeVisible();
  await backOnChecklist(page, id, 'Terms of service');

  // The review: nothing is missing any more.
  await page.getByRole('button', { name: 'Preview and Publish' }).click();
  await expect(page).toHaveURL(new RegExp(`/review\\?property_unique_id=${id}$`));
  await expect(page.getByRole('heading', { name: property.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Before you can publish' })).toHaveCount(0);
  return id;
}

test('a new owner lists a hotel from sign-up to live: every task, Go Live!, Welcome Aboard, and the dashboard shows it live', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const name = uniqueName('Journey Courtyard Hotel');
  const id = await completeListing(page, request, { name, type: 'Hotel', subType: 'Boutique hotel' });

  const goLive = page.getByRole('button', { name: 'Go Live!' });
  await expect(goLive).toBeEnabled();
  await goLive.click();
  await expect(page).toHaveURL(new RegExp(`/welcome\\?property_unique_id=${id}$`));
  await expect(page.getByRole('heading', { name: 'Welcome Aboard' })).toBeVisible();
  await expect(page.getByText('Property is live', { exact: true })).toBeVisible();
  await expect(page.getByText(`${name} is live. Guests can now find and book it.`)).toBeVisible();

  await page.getByRole('button', { name: 'Go to My Properties' }).click();
  await expect(page).toHaveURL(/\/propertyOnboard\/dashboard$/);
  // The dashboard's live section lists it, tagged live; nothing is left in progress.
  await expect(page.getByRole('heading', { name: 'Live listings', level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Not live yet' })).toHaveCount(0);
  const card = page.getByRole('article', { name });
  await expect(card.getByText('Live', { exact: true })).toBeVisible();

  // Editing the live property: what the owner types is saved, but the listing changes only on submit.
  const published = 'Ten bright rooms around a quiet courtyard, near the metro.';
  const edited = 'Ten bright rooms, a courtyard café and a rooftop terrace.';
  await page.goto(`/propertyOnboard/task/details?property_unique_id=${id}&task=basic_info`);
  await page.getByLabel('Description').fill(edited);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.goto(`/propertyOnboard/review?property_unique_id=${id}`);
  await expect(page.getByText(published)).toBeVisible();
  await expect(page.getByText(edited)).toHaveCount(0);
  await expect(
    page.getByRole('article', { name: 'Basic info' }).getByText('Changes not live yet'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Submit changes' }).click();
  await expect(page.getByText('Your changes have been submitted')).toBeVisible();
  await expect(page.getByText(edited)).toBeVisible();
  await expect(page.getByText(published)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Submit changes' })).toHaveCount(0);

  // A photo added to the live property is a draft too: the listing keeps its six photos until submitted.
  await expect(page.getByRole('button', { name: 'Photo 1 of 6' })).toBeVisible();
  await page.goto(`/propertyOnboard/images?property_unique_id=${id}`);
  const bathrooms = photoSection(page, 'Bathrooms');
  await bathrooms.getByLabel('Add photos').setInputFiles([photo('nature/Aqua.jpg')]);
  await expect(bathrooms.getByText('Accepted', { exact: true })).toHaveCount(2, { timeout: 30_000 });
  await page.reload();
  await expect(page.getByText(/^Your photo changes are not live yet\./)).toBeVisible();
  await page.goto(`/propertyOnboard/review?property_unique_id=${id}`);
  await expect(page.getByRole('article', { name: 'Photos' }).getByText('Changes not live yet')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Photo 1 of 6' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit changes' }).click();
  await expect(page.getByText('Your changes have been submitted')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Photo 1 of 7' })).toBeVisible();
  await page.goto(`/propertyOnboard/images?property_unique_id=${id}`);
  await expect(bathrooms.getByText('Accepted', { exact: true })).toHaveCount(2);
  await expect(page.getByText(/^Your photo changes are not live yet\./)).toHaveCount(0);
});

test("a new owner lists a holiday home through the same steps; it ends 'Under review' and an expert will reach out", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const name = uniqueName('Journey Palm Villa');
  const id = await completeListing(page, request, { name, type: 'Holiday home', subType: 'Villa' });

  await expect(page.getByText('an expert will reach out to you')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Live!' })).toHaveCount(0);
  const submit = page.getByRole('button', { name: 'Submit for review' });
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page).toHaveURL(new RegExp(`/welcome\\?property_unique_id=${id}$`));
  await expect(page.getByRole('heading', { name: 'Welcome Aboard' })).toBeVisible();
  await expect(page.getByText('Under review', { exact: true })).toBeVisible();
  await expect(
    page.getByText(`Thank you! An expert will reach out to you shortly to take ${name} live.`),
  ).toBeVisible();
  await expect(page.getByText('Property is live', { exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: 'Go to My Properties' }).click();
  await expect(page).toHaveURL(/\/propertyOnboard\/dashboard$/);
  const card = page.getByRole('article', { name });
  await expect(card.getByText('Under review', { exact: true })).toBeVisible();
});
