import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { BenchServer } from '../bench/server';
import { addHotel, signUp, startOwnServer } from './helpers';

/**
 * The support chat needs OYO_360_CHAT_ENABLED and a staff token, which the other end-to-end tests run
 * without (its floating button would sit over their screens): this file starts its own BFF with both, on
 * E2E_PORT + 50.
 */
const port = Number(process.env.E2E_PORT ?? 3210) + 50;
const STAFF_TOKEN = 'e2e-support-staff-token-7f3a9c';
const STAFF = '/hms_ms/api/v1/onboard/support/staff/conversations';

test.use({ baseURL: `http://127.0.0.1:${port}` });
test.describe.configure({ mode: 'serial' });

let server: BenchServer;
test.beforeAll(async () => {
  // Its own server starts here; on two loaded cores that has been seen to take more than 90 s.
  test.setTimeout(180_000);
  server = await startOwnServer(port, {
    OTP_RESEND_COOLDOWN_MS: '1000',
    OYO_360_CHAT_ENABLED: 'true',
    // No internet in tests: the map's tiles fail at once and it keeps its plain surface.
    MAP_TILE_URL: 'https://127.0.0.1:9/tiles/{z}/{x}/{y}.png',
    SUPPORT_STAFF_TOKEN: STAFF_TOKEN,
  });
});
test.afterAll(async () => server?.stop());

test('an owner writes to support from any screen and a staff reply appears without reload', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const phone = await signUp(page, request);

  // The button is there on the add-property screen; the dialog opens with the empty conversation.
  await page.getByRole('button', { name: 'Chat with support' }).click();
  const dialog = page.getByRole('dialog', { name: 'Support' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Write to us here. Our support team replies in this chat.')).toBeVisible();
  // While it is open, no content is outside a landmark (axe region, issue 12 item 19).
  const axe = await new AxeBuilder({ page }).withRules(['region']).analyze();
  expect(axe.violations.map((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);

  await dialog.getByRole('textbox', { name: 'Message' }).fill('How many photos do I need?');
  await dialog.getByRole('button', { name: 'Send message' }).click();
  const log = dialog.getByRole('log', { name: 'Messages with support' });
  await expect(log.getByText('How many photos do I need?')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Message' })).toHaveValue('');

  // Staff find the conversation through their API and reply.
  const auth = { authorization: `Bearer ${STAFF_TOKEN}` };
  const listed = await request.get(`${STAFF}?awaiting_reply=true`, { headers: auth });
  expect(listed.status()).toBe(200);
  const { data } = (await listed.json()) as {
    data: { conversations: { conversation_id: string; phone: string }[] };
  };
  const conversation = data.conversations.find((c) => c.phone === phone.e164);
  expect(conversation).toBeDefined();
  const url = page.url();
  const replied = await request.post(`${STAFF}/${conversation!.conversation_id}/messages`, {
    headers: auth,
    data: { body: 'At least six good photos. We are happy to help!' },
  });
  expect(replied.status()).toBe(201);

  // The reply arrives in the open panel, with no reload or navigation.
  await expect(log.getByText('At least six good photos. We are happy to help!')).toBeVisible();
  expect(page.url()).toBe(url);

  // Closed and opened again (as on another screen), the conversation is still there.
  await dialog.getByRole('button', { name: 'Close chat' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Chat with support' }).click();
  await expect(
    page
      .getByRole('dialog', { name: 'Support' })
      .getByText('At least six good photos. We are happy to help!'),
  ).toBeVisible();
});

test('signed out, there is no support button', async ({ page }) => {
  await page.goto('/propertyOnboard/sign_up');
  await expect(page.getByLabel('Mobile number')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Chat with support' })).toHaveCount(0);
});

/**
 * What lies under the floating support button once the page is scrolled to its end: the text, buttons and
 * links whose boxes meet the button's (fixed bars such as the footer and toasts aside).
 */
async function coveredByChatButton(page: Page): Promise<string[]> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  return page.evaluate(() => {
    const fab = document.querySelector('[data-testid="support-chat-button"]')!.getBoundingClientRect();
    const inFixed = (el: Element | null): boolean => {
      for (let e = el; e; e = e.parentElement) if (getComputedStyle(e).position === 'fixed') return true;
      return false;
    };
    const covered: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const own = [...el.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '',
      );
      const control = el.matches('button, a, input, [role="button"]');
      if ((!own && !control) || inFixed(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.left < fab.right && r.right > fab.left && r.top < fab.bottom && r.bottom > fab.top)
        covered.push(`${el.tagName} ${(el.textContent ?? '').trim().slice(0, 40)}`);
    }
    return covered;
  });
}

test('in Arabic, the end of the checklist and of the add-property page is not under the support button (issue 12 item 7)', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await signUp(page, request);
  await expect(page.getByRole('button', { name: 'Chat with support' })).toBeVisible();
  const id = await addHotel(page, 'Bait Al Nakheel');
  await page.evaluate(() => localStorage.setItem('language', 'ar'));
  await page.goto(`/propertyOnboard/task?property_unique_id=${id}`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('button', { name: 'الدردشة مع الدعم' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^(إضافة|تعديل)/ }).first()).toBeVisible();
  expect(await coveredByChatButton(page)).toEqual([]);
  await page.goto('/propertyOnboard/add');
  await expect(page.getByRole('textbox').first()).toBeVisible();
  // The button is a lazy part of the shell: the screen can be drawn before it is.
  await expect(page.getByRole('button', { name: 'الدردشة مع الدعم' })).toBeVisible();
  expect(await coveredByChatButton(page)).toEqual([]);
});
