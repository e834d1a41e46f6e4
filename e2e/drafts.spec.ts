import { devices, expect, test, type BrowserContext, type Page } from '@playwright/test';
import { addHotel, logIn, signUp } from './helpers';

/**
 * Drafts (issue 3): every field of a task is saved to the server as a draft while the owner types, kept on the
 * device while the network is down and sent when it comes back, and two tabs editing one section never
 * silently overwrite each other (a version per section, 409 ONB_VERSION_CONFLICT).
 */

const OFFLINE = 'Offline: your changes are kept on this device';
const CONFLICT = 'This section was changed on another device or tab. The latest version has been loaded.';

const taskUrl = (id: string) => `/propertyOnboard/task/details?property_unique_id=${id}&task=basic_info`;

/** The status line of the draft saver showing `text`. */
const draftStatus = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

/**
 * Opens the basic info task of `id` and waits until its form is drawn and nothing is waiting to be saved (the
 * phone field fills in the owner's country as it opens, which the page saves as a draft of its own).
 */
async function openBasicInfo(page: Page, id: string, title: string) {
  await page.goto(taskUrl(id));
  await expect(page.getByLabel('Property name')).toHaveValue(title);
  await expect(draftStatus(page, 'Saving…')).toHaveCount(0);
}

/**
 * Takes the context offline and waits until `page` finds the network gone. Playwright's `setOffline` resolves
 * when the page's renderer knows, before Chromium's network service does: on a loaded machine a draft sent
 * just after it still reached the server (and was then reported as ERR_INTERNET_DISCONNECTED), so a request
 * that fails is what shows the network is really down.
 */
async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await expect
    .poll(() =>
      page.evaluate(() =>
        fetch('/healthz', { cache: 'no-store' }).then(
          () => 'reached',
          () => 'offline',
        ),
      ),
    )
    .toBe('offline');
}

/** The basic_info section of lead `id` as the server has it, read with the page's session cookie. */
async function basicInfoOnServer(page: Page, id: string) {
  const res = await page.request.get(`/hms_ms/api/v1/onboard/leads/${id}`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as {
    data: { lead: { sections: { basic_info: { data: Record<string, unknown>; version: number } } } };
  };
  return body.data.lead.sections.basic_info;
}

test('changes typed offline are kept on the device, saved when the network is back, and found on another device', async ({
  browser,
  context,
  page,
  request,
}) => {
  const phone = await signUp(page, request);
  const id = await addHotel(page, 'Lake Shore Lodge');
  await openBasicInfo(page, id, 'Lake Shore Lodge');

  await goOffline(context, page);
  await page.getByLabel('Description').fill('Eight quiet rooms on the lake shore.');
  await page.getByLabel('Total rooms').fill('8');
  await expect(draftStatus(page, OFFLINE)).toBeVisible();
  await expect(draftStatus(page, 'Saved')).toHaveCount(0);

  await context.setOffline(false);
  await expect(draftStatus(page, 'Saved')).toBeVisible();
  await expect(page.getByLabel('Description')).toHaveValue('Eight quiet rooms on the lake shore.');

  // Another device: its own storage, so only the server can give it these values.
  const other = await browser.newContext({ ...devices['Pixel 7'] });
  const device = await other.newPage();
  await logIn(device, request, phone);
  await openBasicInfo(device, id, 'Lake Shore Lodge');
  await expect(device.getByLabel('Description')).toHaveValue('Eight quiet rooms on the lake shore.');
  await expect(device.getByLabel('Total rooms')).toHaveValue('8');
  await other.close();
});

test('changes typed offline in a page that was closed are restored and sent when the task is opened again', async ({
  context,
  page,
  request,
}) => {
  await signUp(page, request);
  const id = await addHotel(page, 'Hill Top Stay');
  await openBasicInfo(page, id, 'Hill Top Stay');

  await goOffline(context, page);
  await page.getByLabel('Description').fill('Six rooms with a view of the tea gardens.');
  // The page is closed only once its try to save the last change has failed: a save still waiting for its
  // debounce when the page closes was sent by the closing page after Chromium had dropped its offline
  // emulation (the page's DevTools session was gone), and reached the server.
  const lastTry = page.waitForEvent(
    'requestfailed',
    (r) => r.method() === 'PUT' && (r.postData() ?? '').includes('"total_rooms"'),
  );
  await page.getByLabel('Total rooms').fill('6');
  await lastTry;
  await expect(draftStatus(page, OFFLINE)).toBeVisible();
  await page.close();
  await context.setOffline(false);

  // Nothing reached the server while offline.
  const checker = await context.newPage();
  const before = await basicInfoOnServer(checker, id);
  expect(before.data).toMatchObject({ title: 'Hill Top Stay' });
  expect(before.data).not.toHaveProperty('description');
  expect(before.data).not.toHaveProperty('total_rooms');

  await openBasicInfo(checker, id, 'Hill Top Stay');
  await expect(checker.getByLabel('Description')).toHaveValue('Six rooms with a view of the tea gardens.');
  await expect(checker.getByLabel('Total rooms')).toHaveValue('6');
  await expect(draftStatus(checker, 'Saved')).toBeVisible();
  const after = await basicInfoOnServer(checker, id);
  expect(after.data).toMatchObject({
    title: 'Hill Top Stay',
    description: 'Six rooms with a view of the tea gardens.',
    total_rooms: 6,
  });
  expect(after.version).toBeGreaterThan(before.version);
});

test('a tab editing an old version of a section is told of the conflict and shown the latest one, without overwriting it', async ({
  context,
  page,
  request,
}) => {
  // Sign-up, a hotel and two tabs: 14 s alone, past 30 s beside the journey tests on two loaded cores.
  test.setTimeout(90_000);
  await signUp(page, request);
  const id = await addHotel(page, 'Twin Palms');
  const tabA = page;
  await openBasicInfo(tabA, id, 'Twin Palms');
  const tabB = await context.newPage();
  await openBasicInfo(tabB, id, 'Twin Palms');

  await tabA.getByLabel('Description').fill('Written in the first tab.');
  await expect(draftStatus(tabA, 'Saved')).toBeVisible();
  const saved = await basicInfoOnServer(tabA, id);
  expect(saved.data).toMatchObject({ title: 'Twin Palms', description: 'Written in the first tab.' });
  expect(saved.data).not.toHaveProperty('total_rooms');

  // Tab B still holds the version it opened with.
  await expect(tabB.getByLabel('Description')).toHaveValue('');
  await tabB.getByLabel('Total rooms').fill('14');
  await expect(tabB.getByText(CONFLICT, { exact: true })).toBeVisible();
  await expect(tabB.getByLabel('Description')).toHaveValue('Written in the first tab.');
  await expect(tabB.getByLabel('Total rooms')).toHaveValue('');
  // Nothing of tab B's stale edit was saved over tab A's.
  expect(await basicInfoOnServer(tabB, id)).toEqual(saved);

  // On the version it was given, tab B saves normally.
  await tabB.getByLabel('Total rooms').fill('12');
  await expect(draftStatus(tabB, 'Saved')).toBeVisible();
  const latest = await basicInfoOnServer(tabB, id);
  expect(latest.version).toBe(saved.version + 1);
  expect(latest.data).toEqual({ ...saved.data, total_rooms: 12 });

  await tabA.reload();
  await expect(tabA.getByLabel('Description')).toHaveValue('Written in the first tab.');
  await expect(tabA.getByLabel('Total rooms')).toHaveValue('12');
});
