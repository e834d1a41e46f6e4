import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/**
 * The staff preview of screens (issue 16 item 2; the server runs in development, so it is open): every
 * screen drawn for every fixture context by the real composer and renderer without an error, and the page
 * that shows English and Arabic side by side.
 */
const screensDir = join(import.meta.dirname, '..', 'bff', 'screens');
const contexts = readdirSync(join(screensDir, 'fixtures', 'contexts'))
  .filter((n) => n.endsWith('.json'))
  .sort()
  .map((name) => ({
    name,
    signedIn: Boolean(
      (JSON.parse(readFileSync(join(screensDir, 'fixtures', 'contexts', name), 'utf8')) as { user?: unknown })
        .user,
    ),
  }));
const screens = readdirSync(screensDir)
  .filter((n) => n.endsWith('.json'))
  .sort()
  .map((name) => ({
    id: name.slice(0, -'.json'.length),
    public:
      (JSON.parse(readFileSync(join(screensDir, name), 'utf8')) as { public?: boolean }).public === true,
  }));

const frameUrl = (screen: string, context: string, locale = 'en-GB') =>
  `/__preview/screens/frame?${new URLSearchParams({ screen, context, locale }).toString()}`;

/**
 * Opens the frame of `screen` × `context`: the first with a page load, the next ones by changing the address
 * without a reload (the frame follows the history as the app does), which spares loading the app again for
 * each of a screen's ≈30 contexts.
 */
async function openFrame(page: Page, screen: string, context: string, first: boolean) {
  if (first) {
    await page.goto(frameUrl(screen, context));
    return;
  }
  await page.evaluate(
    (url) => {
      window.history.pushState(null, '', url);
      window.dispatchEvent(new PopStateEvent('popstate'));
    },
    frameUrl(screen, context),
  );
}

/** Waits until the frame at `page` has drawn `context`'s screen, then expects no error anywhere in it. */
async function expectDrawn(page: Page, context: string, what: string) {
  const state = page.locator(`[data-preview-context="${context}"]`);
  await expect(state, what).toHaveAttribute('data-preview-state', /^(screen|error)$/);
  await expect(page.locator('[data-preview-error]'), what).toHaveCount(0);
  await expect(page.locator('[aria-busy="true"]'), what).toHaveCount(0);
  // Neither the generic error card (the payload could not be fetched or is invalid) nor a widget fallback.
  await expect(page.getByRole('button', { name: 'Refresh' }), what).toHaveCount(0);
  await expect(page.locator('[data-widget-fallback]'), what).toHaveCount(0);
}

test.describe('every screen × fixture context', () => {
  // One page load and up to 30 screens drawn a test, on a machine shared with the server.
  test.describe.configure({ timeout: 180_000 });
  for (const screen of screens) {
    test(`${screen.id} draws for every fixture context`, async ({ page }) => {
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      // The frame draws the payload the preview API composes for the context: a context whose payload is the
      // same, byte for byte, as one already drawn would draw the same screen again, so only the first context
      // of each distinct payload is drawn (≈100 of the ≈800 screen × context pairs).
      const drawn = new Set<string>();
      for (const context of contexts.filter((c) => c.signedIn || screen.public)) {
        const payload = await (
          await page.request.get(
            `/hms_ms/api/v1/preview/screens/${screen.id}?${new URLSearchParams({ context: context.name })}`,
            { headers: { httpxoyolang: 'en-GB' } },
          )
        ).text();
        if (drawn.has(payload)) continue;
        await openFrame(page, screen.id, context.name, drawn.size === 0);
        drawn.add(payload);
        await expectDrawn(page, context.name, `${screen.id} × ${context.name}`);
      }
      expect(errors).toEqual([]);
    });
  }
});

test('the preview page shows a screen in English and Arabic side by side, on phone-sized frames', async ({
  page,
}) => {
  await page.goto('/__preview/screens?screen=task_details&context=owner-task-address.json');
  await expect(page.getByRole('heading', { name: 'Screen preview' })).toBeVisible();
  const english = page.frameLocator('[data-preview-frame="en-GB"]');
  const arabic = page.frameLocator('[data-preview-frame="ar"]');
  await expect(english.locator('[data-preview-state="screen"]')).toBeVisible();
  await expect(english.getByText('Property location').first()).toBeVisible();
  await expect(arabic.locator('[data-preview-state="screen"]')).toBeVisible();
  await expect(arabic.getByText('موقع العقار').first()).toBeVisible();
  await expect(arabic.locator('html')).toHaveAttribute('dir', 'rtl');
  const box = await page.locator('[data-preview-frame="ar"]').boundingBox();
  expect(box?.width).toBeLessThanOrEqual(362);
  const enBox = await page.locator('[data-preview-frame="en-GB"]').boundingBox();
  expect(enBox && box && Math.abs(enBox.y - box.y)).toBeLessThan(2);
});
