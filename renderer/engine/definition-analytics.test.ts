/**
 * The analytics blocks of the screen definitions (issue 15 item 1: each sign-in step, publish, contract,
 * KYC, the location permission event of SPEC §3): each screen as the BFF composes it for a fixture
 * context (its snapshot), the actions of its button run through the one dispatcher against a stubbed API.
 * Each tap sends its event exactly once, with its properties and nothing personal.
 */
import { createStore } from 'jotai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Action, ScreenPayload, WidgetEnvelope } from '../../schemas/generated/types';
import { i18n } from '../i18n/instance';
import { formValuesAtom } from '../state/atoms';
import { dispatch } from './dispatcher';
import { fakeShellHost } from '../test-support/fake-shell-host';

/** The screens as the BFF composes them for its fixture contexts (bff/screens/snapshots.test.ts keeps them). */
const snapshots = join(import.meta.dirname, '..', '..', 'bff', 'screens', '__snapshots__');

/** The first composition in English of `screen` (for task details: of the address task) that draws `id`. */
function composedWidget(screen: string, id: string): WidgetEnvelope {
  const entries = JSON.parse(readFileSync(join(snapshots, `${screen}.json`), 'utf8')) as {
    contexts: string[];
    payload: ScreenPayload;
  }[];
  for (const { contexts, payload } of entries) {
    if (
      !contexts.some(
        (c) => c.includes('@en-GB') && (screen !== 'task_details' || c.endsWith('?task=address')),
      )
    )
      continue;
    const found = payload.widget_list?.find((w) => w.id === id);
    if (found) return found;
  }
  throw new Error(`no fixture context draws ${screen} / ${id}`);
}

const contentsOf = (widget: WidgetEnvelope) => widget.contents as Record<string, unknown>;
const buttonActions = (screen: string, id: string) =>
  contentsOf(composedWidget(screen, id)).actions as Action[];

const fetchMock = vi.fn<typeof fetch>();
const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (data: unknown = {}) => answer(200, { success: true, data });
const refused = (status: number, code: string) =>
  answer(status, { success: false, error: { code, message: 'Refused' } });

function run(
  screenId: string,
  actions: readonly Action[],
  form: Record<string, unknown> = {},
  response?: unknown,
) {
  const store = createStore();
  store.set(formValuesAtom, { [screenId]: form });
  const host = fakeShellHost();
  const done = dispatch(actions, {
    screenId,
    store,
    host,
    getWidgets: () => [],
    refresh: vi.fn(),
    t: (key, values) => i18n.t(key, values),
    response,
  });
  /** The calls of one event (the engine's own submit_success / submit_error left out). */
  const calls = (event: string) => host.logEvent.mock.calls.filter((c) => c[0] === event);
  return { done, host, calls };
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const phoneForm = { phone: '9876543210', country_code: '+91', otp: '123456' };
const user = { id: 'U7', devise_role: 'owner' };

describe('sign-in steps send their events once (issue 15 item 1)', () => {
  it.each([
    ['sign_up', 'sign_up'],
    ['login_through_otp', 'login'],
  ])('%s: Get OTP, resend, a refused code and an accepted one', async (screen, purpose) => {
    fetchMock.mockResolvedValue(ok({ phone: '+919876543210' }));
    const first = run(screen, buttonActions(screen, 'get_otp'), phoneForm);
    expect(await first.done).toBe(true);
    await vi.waitFor(() => expect(first.calls('sign_in_phone_submitted')).toHaveLength(1));
    expect(first.calls('sign_in_phone_submitted')[0]).toEqual([
      'sign_in_phone_submitted',
      { purpose, resend: false },
      screen,
    ]);

    const otp = contentsOf(composedWidget(screen, 'otp'));
    const resend = run(screen, (otp.resend as { actions: Action[] }).actions, phoneForm);
    await resend.done;
    await vi.waitFor(() => expect(resend.calls('sign_in_phone_submitted')).toHaveLength(1));
    expect(resend.calls('sign_in_phone_submitted')[0]![1]).toEqual({ purpose, resend: true });

    fetchMock.mockResolvedValue(refused(422, 'ONB_OTP_INVALID'));
    const wrong = run(screen, buttonActions(screen, 'verify'), phoneForm);
    expect(await wrong.done).toBe(false);
    await vi.waitFor(() => expect(wrong.calls('sign_in_otp_failed')).toHaveLength(1));
    expect(wrong.calls('sign_in_otp_failed')[0]![1]).toEqual({
      purpose,
      channel: 'sms',
      error_code: 'ONB_OTP_INVALID',
    });
    expect(wrong.calls('sign_in_otp_verified')).toHaveLength(0);

    fetchMock.mockResolvedValue(ok({ user }));
    const right = run(screen, otp.on_complete as Action[], phoneForm);
    await right.done;
    await vi.waitFor(() => expect(right.calls('sign_in_otp_verified')).toHaveLength(1));
    expect(right.calls('sign_in_otp_verified')[0]![1]).toEqual({ purpose, channel: 'sms' });
    expect(right.host.sessionStarted).toHaveBeenCalledTimes(1);
    expect(right.calls('sign_in_otp_failed')).toHaveLength(0);
  });

  it('login: the phone steps of the sign-in page, and e-mail and password refused then accepted', async () => {
    fetchMock.mockResolvedValue(ok({ phone: '+919876543210' }));
    const code = run('login', buttonActions('login', 'get_otp'), { ...phoneForm, role: 'owner' });
    await code.done;
    await vi.waitFor(() => expect(code.calls('sign_in_phone_submitted')).toHaveLength(1));
    expect(code.calls('sign_in_phone_submitted')[0]![1]).toEqual({ purpose: 'login', resend: false });
    const otp = contentsOf(composedWidget('login', 'otp'));
    const again = run('login', (otp.resend as { actions: Action[] }).actions, phoneForm);
    await again.done;
    await vi.waitFor(() => expect(again.calls('sign_in_phone_submitted')).toHaveLength(1));
    expect(again.calls('sign_in_phone_submitted')[0]![1]).toEqual({ purpose: 'login', resend: true });

    const form = { email: 'asha@example.com', password: 'Secret#123', role: 'owner' };
    fetchMock.mockResolvedValue(refused(401, 'ONB_WRONG_CREDENTIALS'));
    const wrong = run('login', buttonActions('login', 'sign_in'), form);
    await wrong.done;
    await vi.waitFor(() => expect(wrong.calls('sign_in_password_refused')).toHaveLength(1));
    expect(wrong.calls('sign_in_password_submitted')).toEqual([
      ['sign_in_password_submitted', { purpose: 'login' }, 'login'],
    ]);
    expect(wrong.calls('sign_in_password_refused')[0]![1]).toEqual({
      purpose: 'login',
      error_code: 'ONB_WRONG_CREDENTIALS',
    });

    fetchMock.mockResolvedValue(ok({ user }));
    const right = run('login', buttonActions('login', 'sign_in'), form);
    await right.done;
    await vi.waitFor(() => expect(right.calls('sign_in_password_accepted')).toHaveLength(1));
    expect(right.calls('sign_in_password_accepted')[0]![1]).toEqual({ purpose: 'login' });
    // Nothing the owner typed goes into an event.
    for (const [, properties] of right.host.logEvent.mock.calls)
      expect(JSON.stringify(properties)).not.toMatch(/asha|Secret|9876543210/);
  });

  it('sign_up_email: e-mail and password submitted, then the e-mailed code accepted', async () => {
    fetchMock.mockResolvedValue(ok({ email: 'asha@example.com' }));
    const form = { email: 'asha@example.com', password: 'Secret#123', password_confirmation: 'Secret#123' };
    const submitted = run('sign_up_email', buttonActions('sign_up_email', 'sign_up'), form);
    await submitted.done;
    await vi.waitFor(() => expect(submitted.calls('sign_in_password_submitted')).toHaveLength(1));
    expect(submitted.calls('sign_in_password_submitted')[0]![1]).toEqual({ purpose: 'sign_up' });

    fetchMock.mockResolvedValue(refused(422, 'ONB_OTP_EXPIRED'));
    const wrong = run('sign_up_email', buttonActions('sign_up_email', 'verify'), { ...form, otp: '123456' });
    await wrong.done;
    await vi.waitFor(() => expect(wrong.calls('sign_in_otp_failed')).toHaveLength(1));
    expect(wrong.calls('sign_in_otp_failed')[0]![1]).toEqual({
      purpose: 'sign_up',
      channel: 'email',
      error_code: 'ONB_OTP_EXPIRED',
    });
  });
});

describe('publish, contract and KYC buttons send their events once (issue 15 item 1)', () => {
  it.each([
    ['review', 'go_live', 'publish_tapped', { kind: 'go_live' }],
    ['review', 'submit_holiday_home', 'publish_tapped', { kind: 'submit_for_review' }],
    ['review', 'submit_changes', 'publish_tapped', { kind: 'submit_changes' }],
    ['terms', 'generate', 'contract_generate_tapped', {}],
    ['terms', 'accept', 'contract_accept_tapped', {}],
    ['kyc', 'submit', 'kyc_submit_tapped', {}],
  ] as const)('%s / %s: %s', async (screen, id, event, extra) => {
    fetchMock.mockResolvedValue(ok({ status: 'LIVE' }));
    const tap = run(screen, buttonActions(screen, id), { consent: ['accepted'] });
    await tap.done;
    await vi.waitFor(() => expect(tap.calls(event)).toHaveLength(1));
    const [, properties, screenId] = tap.calls(event)[0]!;
    expect(screenId).toBe(screen);
    expect(properties).toEqual({ property_unique_id: expect.stringMatching(/^PO[0-9A-Z]{10}$/), ...extra });
  });
});

describe('the location permission event of the address step (SPEC §3)', () => {
  it('is named by flags.location_data_config.gaEventName and says granted or denied', async () => {
    const pin = contentsOf(composedWidget('task_details', 'map_pin'));
    const onResult = (pin.locate as { on_result: Action[] }).on_result;
    for (const result of ['granted', 'denied']) {
      // As the map pin runs it after asking (widgets/map-pin): response.data.result.
      const asked = run('task_details', onResult, { latitude: 28.4 }, { success: true, data: { result } });
      expect(await asked.done).toBe(true);
      await vi.waitFor(() => expect(asked.calls('location_permission')).toHaveLength(1));
      expect(asked.calls('location_permission')[0]).toEqual([
        'location_permission',
        { result },
        'task_details',
      ]);
      // It writes no form field (a field the address section would refuse).
      expect(fetchMock).not.toHaveBeenCalled();
    }
  });
});
