// @vitest-environment node
/**
 * The first screen drawn on the server (issue 13 item 4), as Node draws it (no document: emotion in its server
 * mode): the screen's markup with its controls disabled until hydrated, its styles for the head, and the pages
 * it leaves to the browser. The page around it and its hydration: bff/plugins/external/first-screen-page.test.ts
 * and e2e/first-paint.spec.ts.
 */
import { executionAsyncId } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import type { EmbeddedScreen } from '../schemas/app/first-screen';
import type { InputContents } from '../schemas/generated/types';
import { fixtureContents } from '../widgets/fixtures';
import { hasPrimedRequests } from './engine/screen';
import { globalInfo } from './test-support/global-info';
import { oneAtATime, renderFirstScreen } from './server-render';

/** The sign-up screen as the server embeds it, in short: its heading, the phone field (its fixture) and its button. */
function signUp(locale: EmbeddedScreen['locale'] = 'en-GB'): EmbeddedScreen {
  return {
    screen_id: 'sign_up',
    locale,
    country: null,
    payload: {
      screen_id: 'sign_up',
      schema_version: 1,
      title: 'Sign up',
      hide_footer: true,
      form: { initial: { country_code: 'IN' } },
      widget_list: [
        { id: 'heading', widget_type: 'text', contents: { text: 'List your property', variant: 'title' } },
        { id: 'phone', widget_type: 'input', contents: fixtureContents<InputContents>('input', 'phone') },
        {
          id: 'get_otp',
          widget_type: 'button',
          contents: { label: 'Get OTP', actions: [{ type: 'navigate', to: '/login' }] },
        },
      ],
    },
  };
}

/** The async id a promise callback runs with: 0 while Node's async hooks are off, as they are until an AsyncLocalStorage runs. */
const promiseAsyncId = () => Promise.resolve().then(() => executionAsyncId());

describe('renderFirstScreen', () => {
  it("leaves Node's async hooks off: every later request of the process would pay for them (issue 13 item 6)", async () => {
    expect(await promiseAsyncId()).toBe(0);
    expect(await renderFirstScreen('/propertyOnboard/sign_up', signUp())).not.toBeNull();
    expect(await promiseAsyncId()).toBe(0);
  });

  it('draws the page around its screen, its controls inside one disabled fieldset', async () => {
    const drawn = await renderFirstScreen('/propertyOnboard/sign_up', signUp());
    expect(drawn).not.toBeNull();
    const { html } = drawn!;
    expect(html).toMatch(/^<fieldset role="none" disabled="" [^>]*><header><img [^>]*class="brand-logo"/);
    expect(html).toContain('<main class="MuiBox-root');
    expect(html).toContain('data-screen-id="sign_up"');
    expect(html).toContain('>List your property</h1>');
    expect(html).toMatch(/<input [^>]*type="tel"/);
    expect(html).toContain('>Get OTP</button>');
    expect(html.endsWith('</main></fieldset>')).toBe(true);
  });

  it('gives the styles of every class of the markup for the head, as the emotion cache of the browser reads them', async () => {
    const { html, head } = (await renderFirstScreen('/propertyOnboard/sign_up', signUp()))!;
    const classes = new Set([...html.matchAll(/\bmui-[\w-]+/g)].map((m) => m[0]));
    expect(classes.size).toBeGreaterThan(10);
    for (const name of classes) expect(head).toContain(`.${name}`);
    expect(head).toMatch(/<style data-emotion="mui-global \w+">/);
    expect(head).toMatch(/<style data-emotion="mui [\w -]+">/);
    // Nothing but the app's elements in the markup: hydration would take a style or link for one of them.
    expect(html).not.toContain('<style');
    expect(html).not.toContain('<link');
    // The logo's preload that React hoists is for the head.
    expect(head).toMatch(/^<link rel="preload" as="image" href="[^"]*logo[^"]*"\/>/);
  });

  it('draws the same markup and styles every time (a fresh store and style cache each)', async () => {
    const first = await renderFirstScreen('/propertyOnboard/sign_up', signUp());
    const second = await renderFirstScreen('/propertyOnboard/sign_up', signUp());
    expect(second).toEqual(first);
    // Asked for at once, they are drawn one after another, each as alone.
    const together = await Promise.all([
      renderFirstScreen('/propertyOnboard/sign_up', signUp()),
      renderFirstScreen('/propertyOnboard/sign_up', signUp('de')),
      renderFirstScreen('/propertyOnboard/sign_up', signUp()),
    ]);
    expect(together).toEqual([first, null, first]);
  });

  it('draws another left-to-right language with the texts the page carries for it', async () => {
    const german = {
      ...signUp('de'),
      texts: { widgets: { input: { country: 'Land', country_option: '{{country}} (+{{code}})' } } },
    };
    const { html } = (await renderFirstScreen('/propertyOnboard/sign_up', german))!;
    expect(html).toContain('>Land</label>');
    expect(html).not.toContain('>Country</label>');
    // The next drawing in en-GB is in en-GB again.
    const { html: english } = (await renderFirstScreen('/propertyOnboard/sign_up', signUp()))!;
    expect(english).toContain('>Country</label>');
  });

  it('draws Arabic right to left, with the styles of the right-to-left cache (key muirtl)', async () => {
    const arabic = { ...signUp('ar'), texts: { widgets: { input: { country: 'الدولة' } } } };
    const { html, head } = (await renderFirstScreen('/propertyOnboard/sign_up', arabic))!;
    expect(html).toContain('>الدولة</label>');
    const classes = new Set([...html.matchAll(/\bmuirtl-[\w-]+/g)].map((m) => m[0]));
    expect(classes.size).toBeGreaterThan(10);
    for (const name of classes) expect(head).toContain(`.${name}`);
    expect(html).not.toMatch(/\bmui-[\w-]+/);
    expect(head).toMatch(/<style data-emotion="muirtl-global \w+">/);
    // Flipped by stylis-plugin-rtl: the outline's legend (the label's notch) is aligned to the right.
    expect(head).toContain('text-align:right');
    expect(head).not.toContain('text-align:left');
    const { head: english } = (await renderFirstScreen('/propertyOnboard/sign_up', signUp()))!;
    expect(english).toContain('text-align:left');
  });

  it("draws a signed-in owner's page (the checklist) as the signed-in browser sees it, with the footer tabs", async () => {
    const task: EmbeddedScreen = {
      screen_id: 'task',
      locale: 'en-GB',
      country: null,
      query: { property_unique_id: 'PO1' },
      payload: {
        screen_id: 'task',
        schema_version: 1,
        title: 'Your property',
        widget_list: [
          { id: 'name', widget_type: 'text', contents: { text: 'Sea View Residency', variant: 'title' } },
        ],
      },
      global_info: globalInfo(),
    };
    const drawn = await renderFirstScreen('/propertyOnboard/task?property_unique_id=PO1', task);
    expect(drawn).not.toBeNull();
    const { html } = drawn!;
    expect(html).toMatch(/<main [^>]*data-screen-id="task"[^>]*>.*Sea View Residency/);
    // Not the sign-in page a signed-out visitor is sent to, and no banner: the owner's tabs instead.
    expect(html).not.toContain('<header');
    expect(html).toContain('<nav');
  });

  it('keeps nothing of a page once drawn: no screen request stays primed for the next page', async () => {
    expect(await renderFirstScreen('/propertyOnboard/sign_up', signUp())).not.toBeNull();
    expect(hasPrimedRequests()).toBe(false);
  });

  it('leaves to the browser a page without its texts or of another screen', async () => {
    expect(await renderFirstScreen('/propertyOnboard/sign_up', signUp('de'))).toBeNull();
    expect(await renderFirstScreen('/propertyOnboard/login', signUp())).toBeNull();
    expect(await renderFirstScreen('/propertyOnboard/task', signUp())).toBeNull();
  });
});

describe('oneAtATime', () => {
  /** A drawing that resolves when told, and the signal it was given. */
  const pending = () => {
    let finish: (value: string) => void = () => undefined;
    const promise = new Promise<string>((resolve) => (finish = resolve));
    return { promise, finish };
  };

  it('starts a drawing only once the one before it has settled', async () => {
    const begun: string[] = [];
    const first = pending();
    const draw = oneAtATime(async (_signal: AbortSignal, name: string) => {
      begun.push(name);
      return name === 'first' ? first.promise : name;
    }, 60_000);
    const one = draw('first');
    const two = draw('second');
    await new Promise((resolve) => setImmediate(resolve));
    expect(begun).toEqual(['first']);
    first.finish('first');
    await expect(one).resolves.toBe('first');
    await expect(two).resolves.toBe('second');
    expect(begun).toEqual(['first', 'second']);
  });

  it('goes on to the next drawing when one is stuck past its limit, and tells the stuck one by its signal', async () => {
    const signals: AbortSignal[] = [];
    const draw = oneAtATime((signal: AbortSignal, name: string) => {
      signals.push(signal);
      return name === 'stuck' ? new Promise<string>(() => undefined) : Promise.resolve(name);
    }, 50);
    void draw('stuck');
    await expect(draw('next')).resolves.toBe('next');
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
  });

  it('goes on after a drawing that failed, which fails alone', async () => {
    const draw = oneAtATime(async (_signal: AbortSignal, name: string) => {
      if (name === 'broken') throw new Error('cannot draw');
      return name;
    }, 60_000);
    const broken = draw('broken');
    const next = draw('next');
    await expect(broken).rejects.toThrow('cannot draw');
    await expect(next).resolves.toBe('next');
  });
});
