import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { renderIdCard } from '../bff/test-support/id-cards';
import { addHotel, choose, newEmail, signUp, verification, verifyEmail } from './helpers';

/** Opens the KYC screen of a new hotel of a new owner; returns the hotel's property_unique_id. */
async function openKyc(page: Page, request: APIRequestContext, name: string): Promise<string> {
  await signUp(page, request);
  const id = await addHotel(page, name);
  await page.goto(`/propertyOnboard/kyc?property_unique_id=${id}`);
  await expect(page.getByRole('heading', { name: 'KYC', exact: true })).toBeVisible();
  return id;
}

test('an owner completes KYC: the sign-in number counts as verified, the e-mail is verified by code, a document of the wrong type is refused by text recognition', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const id = await openKyc(page, request, 'Kyc Lake House');

  await page.getByLabel('Full name as on your ID').fill('Ravi Kumar Sharma');
  // The contact number starts as the sign-in number, which the owner proved when signing in.
  await expect(verification(page, 'phone number').getByLabel('Verified (phone number)')).toBeVisible();

  const email = newEmail('kyc');
  await verifyEmail(page, request, email);
  await expect(verification(page, 'e-mail address').getByLabel('Verified (e-mail address)')).toBeVisible();

  await page.getByLabel('Number of rooms').fill('12');
  await page.getByRole('textbox', { name: 'PAN number', exact: true }).fill('abcpe1234f');
  await expect(page.getByRole('textbox', { name: 'PAN number', exact: true })).toHaveValue('ABCPE1234F');
  await choose(page, 'Does the business have a GSTIN?', 'No');

  // A PAN card uploaded as an Aadhaar card: text recognition reads another document type.
  const panCard = await renderIdCard('pan');
  const document = page.getByRole('region', { name: 'Photo of your ID' });
  await choose(page, 'ID type', 'Aadhaar');
  await document.getByLabel('Upload a photo').setInputFiles({
    name: 'pan-card.jpg',
    mimeType: 'image/jpeg',
    buffer: panCard,
  });
  await expect(document.getByText('Uploaded Image is of different IdType').first()).toBeVisible({
    timeout: 30_000,
  });

  // Submitting now names what is missing.
  await page.getByRole('button', { name: 'Submit KYC' }).click();
  await expect(page.getByText('Uploaded Image is of different IdType').first()).toBeVisible();

  await choose(page, 'ID type', 'PAN card');
  await document.getByLabel('Upload another photo').setInputFiles({
    name: 'pan-card-again.jpg',
    mimeType: 'image/jpeg',
    buffer: panCard,
  });
  await expect(document.getByText('Document recognised').first()).toBeVisible({ timeout: 30_000 });

  // The card reads ABCPS1234K, not the PAN typed: refused with a clear message.
  await page.getByRole('button', { name: 'Submit KYC' }).click();
  await expect(
    page.getByText('The number on your document does not match the number you entered.').first(),
  ).toBeVisible();
  const pan = page.getByRole('textbox', { name: 'PAN number', exact: true });
  await pan.fill('ABCPS1234');
  await pan.blur();
  // The half-typed number is saved as a draft, as typed, with the other fields (the server had refused it).
  await expect
    .poll(async () => {
      const res = await page.request.get(`/hms_ms/api/v1/onboard/leads/${id}/kyc`);
      const data = ((await res.json()) as { data: { section: { data: Record<string, unknown> } } }).data;
      return [data.section.data.pan_number, data.section.data.number_of_rooms];
    })
    .toEqual(['ABCPS1234', 12]);
  await expect(page.getByText('Please enter the full number').first()).toBeVisible();
  await expect(page.getByText('Invalid Input')).toHaveCount(0);
  await pan.fill('ABCPS1234K');
  await page.getByRole('button', { name: 'Submit KYC' }).click();
  await expect(page.getByText('KYC details submitted')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/propertyOnboard/task\\?property_unique_id=${id}$`));
  await expect(
    page.getByRole('region', { name: 'Completed Tasks' }).getByText('KYC', { exact: true }),
  ).toBeVisible();

  // Everything is still there when the owner comes back.
  await page.goto(`/propertyOnboard/kyc?property_unique_id=${id}`);
  await expect(page.getByRole('textbox', { name: 'PAN number', exact: true })).toHaveValue('ABCPS1234K');
  await expect(page.getByRole('textbox', { name: 'E-mail address', exact: true })).toHaveValue(email);
  await expect(document.getByText('Document recognised').first()).toBeVisible();
  await expect(page.getByText('Your KYC is complete. You can still change the details below.')).toBeVisible();
});

test("an e-mail address of another profile leads to 'Resolve an issue', where the owner switches to that profile", async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // The first owner verifies an address.
  const first = await browser.newContext();
  const firstPage = await first.newPage();
  const firstId = await openKyc(firstPage, request, 'Kyc First House');
  const email = newEmail('shared');
  await verifyEmail(firstPage, request, email);
  await expect(
    verification(firstPage, 'e-mail address').getByLabel('Verified (e-mail address)'),
  ).toBeVisible();
  await first.close();

  // A second owner proves the same address: it belongs to the first profile.
  await openKyc(page, request, 'Kyc Second House');
  await verifyEmail(page, request, email);
  await expect(page).toHaveURL(/\/propertyOnboard\/resolve_issue\?property_unique_id=PO[0-9A-Z]{10}$/);
  await expect(page.getByRole('heading', { name: 'Resolve an issue' })).toBeVisible();
  await expect(page.getByText('This email is already in use. Please use a different one.')).toBeVisible();

  await page.getByRole('button', { name: 'Switch profile' }).click();
  await expect(page.getByText('You switched to your other profile')).toBeVisible();
  // Signed in as the first owner: the property middleware opens their newest property.
  await expect(page).toHaveURL(new RegExp(`/propertyOnboard/task\\?property_unique_id=${firstId}$`));
});
