import { describe, expect, it } from 'vitest';
import { createTranslations } from '../services/translations';
import { loadFixtureContexts, loadScreenCatalogue, type ScreenContext } from './composer';

/**
 * The exit screen and the 360 screens of the revamped first-level onboarding (issue 16 item 5; SPEC §2, §3),
 * composed by the real catalogue from the fixture contexts, in English and Arabic.
 */
const here = import.meta.dirname;
const translations = createTranslations();
const catalogue = loadScreenCatalogue({ dir: here, translate: translations.translate, check: false });
const contexts = loadFixtureContexts(here);
const withLead = contexts['owner-with-lead.json']!;
const published = contexts['owner-published.json']!;
const revamp = (ctx: ScreenContext): ScreenContext => ({
  ...ctx,
  global_info: { ...ctx.global_info, enable_oyo360_l1_revamp: true },
});
const halfDone = (ctx: ScreenContext): ScreenContext => {
  const lead = ctx.lead as { checklist: Record<string, unknown> };
  return {
    ...ctx,
    lead: { ...lead, checklist: { ...lead.checklist, completionPercentage: 60 } },
  } as ScreenContext;
};
const widgets = (id: string, ctx: ScreenContext) => catalogue.compose(id, ctx).widget_list;

describe('exit screen', () => {
  it('shows an unfinished lead its completion, Continue listing back to the checklist and My Properties', () => {
    const [exit, ...rest] = widgets('exit', halfDone(withLead));
    expect(rest).toEqual([]);
    expect(exit).toMatchObject({
      widget_type: 'exit_screen',
      contents: {
        title: 'Leave for now?',
        completion_percentage: 60,
        completion_label: 'Listing 60% complete',
        stay_action: {
          label: 'Continue listing',
          actions: [{ type: 'navigate', to: '/task', query: { property_unique_id: 'PO7K3M9Q2XW4' } }],
        },
        leave_action: { label: 'Go to My Properties', actions: [{ type: 'navigate', to: '/dashboard' }] },
      },
    });
  });

  it('sends a published listing and an owner without a lead to My Properties', () => {
    expect(widgets('exit', published)).toEqual([
      expect.objectContaining({ widget_type: 'redirect', contents: { to: '/dashboard' } }),
    ]);
    expect(widgets('exit', { ...withLead, lead: null })).toEqual([
      expect.objectContaining({ widget_type: 'redirect', contents: { to: '/dashboard' } }),
    ]);
  });

  it('is offered on the checklist of an unpublished lead only, as Finish later', () => {
    const finish = (ctx: ScreenContext) => widgets('task', ctx).find((w) => w.id === 'finish_later');
    expect(finish(withLead)).toMatchObject({
      contents: {
        label: 'Finish later',
        actions: [{ type: 'navigate', to: '/exit', query: { property_unique_id: 'PO7K3M9Q2XW4' } }],
      },
    });
    expect(finish(published)).toBeUndefined();
  });

  it('is in Arabic for an Arabic owner', () => {
    const [exit] = widgets('exit', { ...halfDone(withLead), locale: 'ar' });
    const contents = exit!.contents as { title: string; completion_label: string };
    expect(contents.title).not.toBe('Leave for now?');
    expect(contents.title).toMatch(/[\u0600-\u06ff]/);
    expect(contents.completion_label).toContain('60');
  });
});

describe('360 completion and 360 login (enable_oyo360_l1_revamp)', () => {
  it('Welcome Aboard sends a published listing to 360 completion only with the revamp on', () => {
    const redirect = (ctx: ScreenContext) => widgets('welcome', ctx).find((w) => w.id === 'revamp_360');
    expect(redirect(published)).toBeUndefined();
    expect(redirect(revamp(published))).toMatchObject({
      widget_type: 'redirect',
      contents: { to: '/360/completion?property_unique_id=PO7K3M9Q2XW4' },
    });
  });

  it('360 completion thanks the owner of a live hotel, with its Lead ID, next steps and Log in to 360', () => {
    const [done, ...rest] = widgets('completion_360', revamp(published));
    expect(rest).toEqual([]);
    expect(done).toMatchObject({
      widget_type: 'thanks',
      contents: {
        title: 'Your property is set up on 360',
        details: [{ label: 'Lead ID', value: 'PO7K3M9Q2XW4' }],
        primary_action: {
          label: 'Log in to 360',
          actions: [{ type: 'navigate', to: '/360/login', query: { property_unique_id: 'PO7K3M9Q2XW4' } }],
        },
        secondary_action: { label: 'Go to My Properties' },
      },
    });
    const contents = done!.contents as { message: string; next_steps: string[] };
    expect(contents.message).toContain('Sea View Residency is live');
    expect(contents.next_steps).toHaveLength(3);
  });

  it('360 completion words a holiday home as under review, and sends an unpublished lead to its review', () => {
    const [done] = widgets('completion_360', { ...published, brand: 'holiday_home' });
    expect((done!.contents as { message: string }).message).toContain('under review');
    expect(widgets('completion_360', withLead)).toEqual([
      expect.objectContaining({
        widget_type: 'redirect',
        contents: { to: '/review?property_unique_id=PO7K3M9Q2XW4' },
      }),
    ]);
  });

  it('360 login names the account to log in with: its number, else its e-mail', () => {
    const texts = (ctx: ScreenContext) =>
      widgets('login_360', ctx)
        .filter((w) => w.widget_type === 'text')
        .map((w) => (w.contents as { text: string }).text);
    expect(texts(published)).toContain('Log in with +919876543210, the mobile number of this account.');
    const email = contexts['owner-email.json']!;
    expect(texts(email)).toContain('Log in with owner@example.com, the e-mail address of this account.');
    const download = widgets('login_360', published).find((w) => w.id === 'download');
    expect(download?.contents).toMatchObject({
      variant: 'contained',
      actions: [{ type: 'open_url', url: 'https://partner.example.com' }],
    });
  });
});
