import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { addHotel, photo, photoSection as section, signUp, uploadPhotos as upload } from './helpers';

test('an owner uploads real photos with visible progress; a duplicate and a portrait are refused; the task completes', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signUp(page, request);
  const id = await addHotel(page, 'Lotus Photo House');
  await page.goto(`/propertyOnboard/images?property_unique_id=${id}`);
  await expect(page.getByRole('heading', { name: 'Photos', exact: true })).toBeVisible();
  await expect(page.getByText('0 of 6 good photos added')).toBeVisible();
  await expect(page.getByText('Photo tips')).toBeVisible();

  // A large photo on a slow connection: the owner watches its progress.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 2 * 1024 * 1024,
  });
  const more = section(page, 'More photos');
  await more.getByLabel('Add photos').setInputFiles(photo('abstract/Elephants_3840x2160.jpg'));
  const progress = more.getByRole('progressbar');
  await expect(progress).toBeVisible();
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(more.getByText('Accepted', { exact: true })).toHaveCount(1, { timeout: 30_000 });

  await upload(page, 'Building from outside', [photo('nature/Dune.jpg')]);
  await upload(page, 'Reception and common areas', [photo('nature/Storm.jpg')]);
  await upload(page, 'Rooms', [
    photo('nature/Garden.jpg'),
    photo('nature/LadyBird.jpg'),
    photo('nature/TwoWings.jpg'),
  ]);

  // The same photo again is refused by the server.
  await more.getByLabel('Add photos').setInputFiles(photo('nature/Garden.jpg'));
  await expect(
    more.getByText('This image has already been uploaded. Please re-upload a new image', { exact: true }),
  ).toBeVisible();

  // A portrait photo is refused in the browser before any upload.
  const dir = mkdtempSync(join(tmpdir(), 'photos-'));
  const portrait = join(dir, 'portrait.jpg');
  await sharp(photo('nature/Blinds.jpg')).rotate(90).jpeg().toFile(portrait);
  const bathroom = section(page, 'Bathrooms');
  await bathroom.getByLabel('Add photos').setInputFiles(portrait);
  await expect(
    bathroom.getByText('Please choose a horizontal (landscape) photo', { exact: true }),
  ).toBeVisible();
  // Its picture fills the tile's 4:3 box, which a portrait does not stretch: nothing below moves when it loads.
  const refused = bathroom.getByRole('img', { name: 'Photo 1' });
  await refused.scrollIntoViewIfNeeded();
  await expect
    .poll(() =>
      refused.evaluate((img: HTMLImageElement) => img.complete && img.naturalHeight > img.naturalWidth),
    )
    .toBe(true);
  const box = (await refused.boundingBox())!;
  expect(Math.abs((box.width * 3) / 4 - box.height)).toBeLessThan(2);

  await upload(page, 'Bathrooms', [photo('nature/Wood.jpg')]);
  await expect(
    page.getByText('You have added every photo needed. You can add more at any time.'),
  ).toBeVisible();

  // What the browser pre-check cost per photo (printed for the record; behaviour, not time, is asserted).
  const costs = await page.evaluate(() =>
    performance.getEntriesByName('photo-precheck').map((e) => Math.round(e.duration * 10) / 10),
  );
  console.log(`photo pre-check per photo, ms: ${costs.join(', ')}`);
  expect(costs.length).toBeGreaterThanOrEqual(9);

  // The images task is complete on the checklist.
  await page.getByRole('button', { name: 'Back to checklist' }).click();
  await expect(page).toHaveURL(new RegExp(`/task\\?property_unique_id=${id}$`));
  await expect(
    page.getByRole('region', { name: 'Completed Tasks' }).getByText('Photos', { exact: true }),
  ).toBeVisible();
});

test('with room categories saved, the rooms ask for photos of each room category until the task completes', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signUp(page, request);
  const id = await addHotel(page, 'Lotus Room House');
  // The room categories as the room categories task saves them (a draft is enough for the photos).
  const saved = await page.request.put(`/hms_ms/api/v1/onboard/leads/${id}/sections/room_categories`, {
    data: {
      data: {
        room_categories: [
          { name: 'Deluxe double', count: 8 },
          { name: 'Family suite', count: 2 },
        ],
      },
      version: 0,
      draft: true,
    },
  });
  expect(saved.status()).toBe(200);

  await page.goto(`/propertyOnboard/images?property_unique_id=${id}`);
  await expect(page.getByRole('heading', { name: 'Photos', exact: true })).toBeVisible();
  await expect(section(page, 'Rooms')).toHaveCount(0);
  await expect(section(page, 'Room photos: Deluxe double')).toBeVisible();
  await expect(section(page, 'Room photos: Family suite')).toBeVisible();
  await expect(
    page.getByText('Room photos in all: 0 of 3, with at least 1 for each room category', { exact: true }),
  ).toBeVisible();

  await upload(page, 'Building from outside', [photo('nature/Dune.jpg')]);
  await upload(page, 'Reception and common areas', [photo('nature/Storm.jpg')]);
  await upload(page, 'Bathrooms', [photo('nature/Wood.jpg')]);
  await upload(page, 'Room photos: Deluxe double', [
    photo('nature/Garden.jpg'),
    photo('nature/LadyBird.jpg'),
    photo('nature/Aqua.jpg'),
  ]);
  // Six good photos and three of rooms, but the family suites have none yet.
  await expect(page.getByText('6 of 6 good photos added')).toBeVisible();
  await expect(
    page.getByText('You have added every photo needed. You can add more at any time.'),
  ).toHaveCount(0);

  await upload(page, 'Room photos: Family suite', [photo('nature/TwoWings.jpg')]);
  await expect(
    page.getByText('Room photos in all: 4 of 3, with at least 1 for each room category', { exact: true }),
  ).toBeVisible();
  await expect(
    page.getByText('You have added every photo needed. You can add more at any time.'),
  ).toBeVisible();
  await expect(section(page, 'Room photos: Family suite').getByText('Accepted', { exact: true })).toHaveCount(
    1,
  );

  await page.getByRole('button', { name: 'Back to checklist' }).click();
  await expect(
    page.getByRole('region', { name: 'Completed Tasks' }).getByText('Photos', { exact: true }),
  ).toBeVisible();
});
