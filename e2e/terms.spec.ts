import { expect, test, type Page } from '@playwright/test';
import { addHotel, signUp } from './helpers';

const LEADS = '/hms_ms/api/v1/onboard/leads';

/** Saves a section finally through the API at its current version (the owner's session cookie goes with it). */
async function saveSection(page: Page, id: string, section: string, data: Record<string, unknown>) {
  const lead = await page.request.get(`${LEADS}/${id}`);
  expect(lead.status()).toBe(200);
  const body = (await lead.json()) as { data: { lead: { sections: Record<string, { version: number }> } } };
  const version = body.data.lead.sections[section]?.version ?? 0;
  const saved = await page.request.put(`${LEADS}/${id}/sections/${section}`, {
    data: { data, version, draft: false },
  });
  expect(saved.status(), await saved.text()).toBe(200);
}

test('an owner reads the commercial terms, generates the contract, downloads the PDF and accepts it with the consent checkbox', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await signUp(page, request);
  const id = await addHotel(page, 'Harbour Light Inn');
  await saveSection(page, id, 'basic_info', {
    title: 'Harbour Light Inn',
    total_rooms: 10,
    available_floors: 2,
    frontdesk_phone: '+919812345678',
  });
  await saveSection(page, id, 'address', {
    latitude: 28.4601,
    longitude: 77.02635,
    address_line: '14 Sohna Road',
    city: 'Gurugram',
    country: 'IN',
    location_confirmed: true,
    not_duplicate_confirmed: true,
  });

  // The checklist's task opens the terms.
  await page.goto(`/propertyOnboard/task?property_unique_id=${id}`);
  await page
    .getByRole('button', { name: /Terms of service/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/propertyOnboard/terms\\?property_unique_id=${id}$`));
  await expect(page.getByRole('heading', { name: 'Terms of service', exact: true })).toBeVisible();
  // The fees as a table: each term a row header, its value a cell (issue 12 item 16).
  const fees = page.getByRole('table', { name: 'Commercial terms' });
  const row = (label: string) =>
    fees.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label }) });
  await expect(row('Commission charges').getByRole('cell')).toHaveText('18%');
  await expect(row('Walk-in guests').getByRole('cell')).toHaveText('Commission waived');
  // Money and dates for the owner's language, no internal version (SPEC §9; issue 12 item 16).
  await expect(row('One-time fee').getByRole('cell')).toHaveText('₹0.00');
  await expect(row('Contract period').getByRole('cell')).toHaveText(
    /^\d{1,2} [A-Z][a-z]{2} \d{4} to \d{1,2} [A-Z][a-z]{2} \d{4} \(12 months\)$/,
  );
  await expect(page.getByText(/\bv2\b/)).toHaveCount(0);

  // Held back a moment so the waiting message can be seen (generation itself takes well under a second).
  await page.route(`**${LEADS}/${id}/contract`, async (route) => {
    if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.getByRole('button', { name: 'Generate my contract' }).click();
  await expect(
    page.getByText('Generating your contract. This takes under 1 minute.', { exact: true }),
  ).toBeVisible();
  const open = page.getByRole('button', { name: 'Open contract (PDF)' });
  await expect(open).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Your contract is ready.', { exact: true })).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), open.click()]);
  expect(download.suggestedFilename()).toBe(`contract-${id}-v2-r1.pdf`);
  const path = await download.path();
  const { readFile } = await import('node:fs/promises');
  expect((await readFile(path)).subarray(0, 5).toString()).toBe('%PDF-');

  // Accept stays disabled until the consent box is ticked.
  const accept = page.getByRole('button', { name: 'Accept contract' });
  await expect(accept).toBeDisabled();
  await page.getByRole('checkbox', { name: 'I have read the contract and accept its terms' }).check();
  await expect(accept).toBeEnabled();
  await accept.click();
  await expect(page.getByText('Contract accepted')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/propertyOnboard/task\\?property_unique_id=${id}$`));
  await expect(
    page.getByRole('region', { name: 'Completed Tasks' }).getByText('Terms of service', { exact: true }),
  ).toBeVisible();
});
