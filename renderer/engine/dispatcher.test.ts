import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Action, WidgetEnvelope } from '../../schemas/generated/types';
import { i18n } from '../i18n/instance';
import { blockingLoaderAtom, formErrorsAtom, formValuesAtom, openPopupAtom } from '../state/atoms';
import { dispatch, type DispatchContext } from './dispatcher';
import { fakeShellHost } from '../test-support/fake-shell-host';

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const phoneWidget: WidgetEnvelope = {
  id: 'phone',
  widget_type: 'input',
  contents: {
    field: 'phone',
    kind: 'phone',
    label: 'Mobile number',
    required: true,
    required_message: 'Please enter your mobile number',
    invalid_message: 'Please enter the correct phone number',
    country_field: 'country',
    default_country: 'IN',
  },
};
const otpWidget: WidgetEnvelope = {
  id: 'otp',
  widget_type: 'input',
  contents: { field: 'otp', kind: 'otp', label: 'OTP', required: true, otp_length: 6 },
};
const emailWidget: WidgetEnvelope = {
  id: 'email',
  widget_type: 'input',
  contents: {
    field: 'email',
    kind: 'email',
    label: 'E-mail',
    required_when: { '==': [{ var: 'form.channel' }, 'email'] },
  },
};
const nameWidget: WidgetEnvelope = {
  id: 'name',
  widget_type: 'input',
  contents: { field: 'name', kind: 'text', label: 'Name', pattern: '[A-Za-z ]+', max_length: 10 },
};

function makeCtx(widgets: WidgetEnvelope[] = [phoneWidget, otpWidget, emailWidget, nameWidget]) {
  const store = createStore();
  const host = fakeShellHost();
  const refresh = vi.fn();
  const ctx: DispatchContext = {
    screenId: 'sign_up',
    store,
    host,
    getWidgets: () => widgets,
    refresh,
    t: (key, values) => i18n.t(key, values),
  };
  const setForm = (values: Record<string, unknown>) => store.set(formValuesAtom, { sign_up: values });
  const errors = () => store.get(formErrorsAtom).sign_up ?? {};
  const form = () => store.get(formValuesAtom).sign_up ?? {};
  return { ctx, store, host, refresh, setForm, errors, form };
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('dispatch: simple actions', () => {
  it('navigates through the host, with replace', async () => {
    const { ctx, host } = makeCtx();
    expect(await dispatch([{ type: 'navigate', to: '/dashboard', replace: true }], ctx)).toBe(true);
    expect(host.navigate).toHaveBeenCalledWith('/dashboard', { replace: true });
  });

  it('goes back through the host with its fallback', async () => {
    const { ctx, host } = makeCtx();
    expect(await dispatch([{ type: 'go_back', fallback: '/account' }], ctx)).toBe(true);
    expect(host.goBack).toHaveBeenCalledWith('/account');
    expect(host.navigate).not.toHaveBeenCalled();
  });

  it('sets a value from a JSON Logic rule over {form}', async () => {
    const { ctx, setForm, form } = makeCtx();
    setForm({ first: 'Asha' });
    await dispatch(
      [{ type: 'set_value', field: 'greeting', value: { cat: ['Hi ', { var: 'form.first' }] } }],
      ctx,
    );
    expect(form().greeting).toBe('Hi Asha');
  });

  it('shows a toast, opens and closes a popup, refreshes, signs out and sets the language', async () => {
    const { ctx, host, store, refresh } = makeCtx();
    await dispatch(
      [{ type: 'show_toast', text: 'Request raised successfully!', status: 'success', timer_ms: 3000 }],
      ctx,
    );
    expect(host.toast).toHaveBeenCalledWith({
      text: 'Request raised successfully!',
      status: 'success',
      timer_ms: 3000,
    });
    await dispatch([{ type: 'open_popup', popup_id: 'confirm_remove' }], ctx);
    expect(store.get(openPopupAtom)).toBe('confirm_remove');
    await dispatch([{ type: 'close_popup' }], ctx);
    expect(store.get(openPopupAtom)).toBeNull();
    await dispatch([{ type: 'refresh' }], ctx);
    expect(refresh).toHaveBeenCalled();
    await dispatch([{ type: 'sign_out' }, { type: 'set_language', language: 'ar' }], ctx);
    expect(host.signOut).toHaveBeenCalled();
    expect(host.setLanguage).toHaveBeenCalledWith('ar');
  });

  it('stops at the first failing action', async () => {
    const { ctx, host } = makeCtx();
    host.signOut.mockResolvedValue(false);
    const ok = await dispatch([{ type: 'sign_out' }, { type: 'navigate', to: '/dashboard' }], ctx);
    expect(ok).toBe(false);
    expect(host.navigate).not.toHaveBeenCalled();
  });

  it('copies text and confirms with a success toast', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { ctx, host } = makeCtx();
    await dispatch([{ type: 'copy_text', text: 'LEAD-123', toast_text: 'Lead ID copied' }], ctx);
    expect(writeText).toHaveBeenCalledWith('LEAD-123');
    expect(host.toast).toHaveBeenCalledWith({ text: 'Lead ID copied', status: 'success' });
  });

  it('opens only https URLs, in a new tab without opener', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { ctx } = makeCtx();
    expect(await dispatch([{ type: 'open_url', url: 'https://partners.example.com/terms' }], ctx)).toBe(true);
    expect(open).toHaveBeenCalledWith('https://partners.example.com/terms', '_blank', 'noopener,noreferrer');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await dispatch([{ type: 'open_url', url: 'javascript:alert(1)' }], ctx)).toBe(false);
    expect(await dispatch([{ type: 'open_url', url: 'http://partners.example.com/' }], ctx)).toBe(false);
    expect(open).toHaveBeenCalledTimes(1);
    warn.mockRestore();
    open.mockRestore();
  });

  it('downloads files of the BFF through a temporary link, and refuses other paths', async () => {
    const clicked: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({
        href: this.getAttribute('href') ?? '',
        download: this.getAttribute('download') ?? 'none',
      });
    });
    const { ctx } = makeCtx();
    const file = '/hms_ms/api/v1/onboard/leads/PO123/contract/0b8e1c52-56a8-4d6e-9f1e-6f5f8f3e2a11/file';
    expect(await dispatch([{ type: 'download_file', endpoint: file }], ctx)).toBe(true);
    expect(clicked).toEqual([{ href: file, download: '' }]);
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await dispatch([{ type: 'download_file', endpoint: '/hms_ms/../evil' }], ctx)).toBe(false);
    expect(await dispatch([{ type: 'download_file', endpoint: 'https://evil.example.com/x.pdf' }], ctx)).toBe(
      false,
    );
    expect(clicked).toHaveLength(1);
    warn.mockRestore();
    click.mockRestore();
  });
});

describe('dispatch: submit', () => {
  const requestOtp: Action = {
    type: 'submit',
    endpoint: '/hms_ms/api/v2/request_otp',
    method: 'POST',
    fields: ['phone'],
    body: { phone: { var: 'form.phone' }, country_code: { var: 'form.country' }, purpose: 'sign_up' },
    blocking: true,
    on_success: [{ type: 'set_value', field: 'otp_sent_to', value: { var: 'response.data.phone' } }],
  };

  it('refuses an empty required field with its required_message and sends nothing', async () => {
    const { ctx, errors } = makeCtx();
    expect(await dispatch([requestOtp], ctx)).toBe(false);
    expect(errors().phone).toBe('Please enter your mobile number');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses an invalid phone for the chosen country', async () => {
    const { ctx, setForm, errors } = makeCtx();
    setForm({ phone: '12345', country: 'IN' });
    expect(await dispatch([requestOtp], ctx)).toBe(false);
    expect(errors().phone).toBe('Please enter the correct phone number');
  });

  it('sends evaluated body values, shows the blocking loader, then runs on_success with the response', async () => {
    const { ctx, setForm, errors, form, store } = makeCtx();
    setForm({ phone: '9876543210', country: 'IN' });
    let loaderDuringRequest = -1;
    fetchMock.mockImplementation(async () => {
      loaderDuringRequest = store.get(blockingLoaderAtom);
      return jsonResponse(200, { success: true, data: { phone: '+919876543210', otp_length: 6 } });
    });
    expect(await dispatch([requestOtp], ctx)).toBe(true);
    expect(errors().phone).toBeUndefined();
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toEqual({
      phone: '9876543210',
      country_code: 'IN',
      purpose: 'sign_up',
    });
    expect(loaderDuringRequest).toBe(1);
    expect(store.get(blockingLoaderAtom)).toBe(0);
    expect(form().otp_sent_to).toBe('+919876543210');
  });

  it('shows a server field error under that field and runs on_error', async () => {
    const { ctx, setForm, errors, host } = makeCtx();
    setForm({ otp: '123456' });
    fetchMock.mockResolvedValue(
      jsonResponse(400, {
        success: false,
        error: { code: 'ONB_OTP_INCORRECT', message: 'Please enter correct OTP', field: 'otp' },
      }),
    );
    const ok = await dispatch(
      [
        {
          type: 'submit',
          endpoint: '/hms_ms/api/v2/verify_otp',
          method: 'POST',
          fields: ['otp'],
          on_error: [{ type: 'set_value', field: 'last_error', value: { var: 'response.error.code' } }],
        },
      ],
      ctx,
    );
    expect(ok).toBe(false);
    expect(errors().otp).toBe('Please enter correct OTP');
    expect(host.toast).not.toHaveBeenCalled();
    expect(ctx.store.get(formValuesAtom).sign_up?.last_error).toBe('ONB_OTP_INCORRECT');
  });

  it('shows other errors as an error toast with the extracted message', async () => {
    const { ctx, host } = makeCtx();
    fetchMock.mockResolvedValue(jsonResponse(500, { success: false, error: { message: 'stack trace' } }));
    expect(await dispatch([{ type: 'submit', endpoint: '/x', method: 'POST' }], ctx)).toBe(false);
    expect(host.toast).toHaveBeenCalledWith({ text: 'Internal Server Error', status: 'error' });
  });

  it('validates otp length, e-mail when required_when holds, pattern and max_length', async () => {
    const { ctx, setForm, errors } = makeCtx();
    const submit: Action = {
      type: 'submit',
      endpoint: '/x',
      method: 'POST',
      fields: ['otp', 'email', 'name'],
    };
    setForm({ otp: '1234', channel: 'email', name: 'R2D2' });
    expect(await dispatch([submit], ctx)).toBe(false);
    expect(errors().otp).toBe('Please enter correct OTP');
    expect(errors().email).toBe('This field is required');
    expect(errors().name).toBe('Invalid Input');

    setForm({ otp: '123456', channel: 'email', email: 'owner@', name: 'Abcdefghijkl' });
    expect(await dispatch([submit], ctx)).toBe(false);
    expect(errors().otp).toBeUndefined();
    expect(errors().email).toBe('Please enter the correct email ID');
    expect(errors().name).toBe('Please enter at most 10 characters');

    setForm({ otp: '123456', channel: 'sms', name: 'Asha' });
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data: {} }));
    expect(await dispatch([submit], ctx)).toBe(true);
    expect(errors()).toEqual({});
  });

  it('session_started hands response.data.user to the host', async () => {
    const { ctx, setForm, host } = makeCtx();
    setForm({ otp: '123456' });
    const user = {
      id: 'u1',
      team: null,
      email: null,
      phone: '+919876543210',
      country_code: 'IN',
      language: 'en-GB',
      devise_role: 'Owner_Portal_User',
    };
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data: { user } }));
    const ok = await dispatch(
      [
        {
          type: 'submit',
          endpoint: '/hms_ms/api/v2/verify_otp',
          method: 'POST',
          on_success: [{ type: 'session_started' }],
        },
      ],
      ctx,
    );
    expect(ok).toBe(true);
    expect(host.sessionStarted).toHaveBeenCalledWith(user);
  });

  it('session_started without a user fails', async () => {
    const { ctx, host } = makeCtx();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await dispatch([{ type: 'session_started' }], ctx)).toBe(false);
    expect(host.sessionStarted).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe('dispatch: idempotent submit (issue 14 item 5)', () => {
  const publish: Action = {
    type: 'submit',
    endpoint: '/hms_ms/api/v1/onboard/leads/PO1/publish',
    method: 'POST',
    idempotent: true,
  };
  const keyOf = (call: number) =>
    (fetchMock.mock.calls[call]![1]!.headers as Record<string, string>)['Idempotency-Key'];

  it('sends the same Idempotency-Key again on Retry after a network failure, and a new one on the next tap', async () => {
    const { ctx } = makeCtx();
    const retries: (() => Promise<boolean>)[] = [];
    ctx.showFailure = (_message, retry) => retries.push(retry);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await dispatch([publish], ctx)).toBe(false);
    expect(retries).toHaveLength(1);
    const key = keyOf(0);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // Retry of the error card: the same intent, the same key (again after a 503).
    fetchMock.mockResolvedValueOnce(jsonResponse(503, { success: false, error: { message: 'busy' } }));
    expect(await retries[0]!()).toBe(false);
    expect(keyOf(1)).toBe(key);
    fetchMock.mockResolvedValueOnce(
      jsonResponse(200, { success: true, data: { property_unique_id: 'PO1' } }),
    );
    expect(await retries[1]!()).toBe(true);
    expect(keyOf(2)).toBe(key);

    // A second, separate publish: a new key.
    fetchMock.mockResolvedValueOnce(
      jsonResponse(200, { success: true, data: { property_unique_id: 'PO1' } }),
    );
    expect(await dispatch([publish], ctx)).toBe(true);
    expect(keyOf(3)).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(3)).not.toBe(key);
  });

  it('sends no Idempotency-Key for a submit that is not idempotent', async () => {
    const { ctx } = makeCtx();
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data: {} }));
    expect(await dispatch([{ ...publish, idempotent: false }], ctx)).toBe(true);
    expect(keyOf(0)).toBeUndefined();
  });
});

describe('dispatch: navigate query and nested submit bodies (issue 3)', () => {
  it('resolves query values (literals and rules over {form, response}) and hands them to the host', async () => {
    const { ctx, host, setForm } = makeCtx();
    setForm({ task: 'basic_info' });
    fetchMock.mockResolvedValue(
      jsonResponse(200, { success: true, data: { lead: { property_unique_id: 'PO1A2B3C4D5E' } } }),
    );
    const ok = await dispatch(
      [
        {
          type: 'submit',
          endpoint: '/hms_ms/api/v1/onboard/leads',
          method: 'POST',
          on_success: [
            {
              type: 'navigate',
              to: '/task/details',
              replace: true,
              query: {
                property_unique_id: { var: 'response.data.lead.property_unique_id' },
                task: { var: 'form.task' },
                step: 2,
                missing: { var: 'form.nothing' },
              },
            },
          ],
        },
      ],
      ctx,
    );
    expect(ok).toBe(true);
    expect(host.navigate).toHaveBeenCalledWith('/task/details', {
      replace: true,
      query: { property_unique_id: 'PO1A2B3C4D5E', task: 'basic_info', step: '2' },
    });
  });

  it('resolves submit body values recursively', async () => {
    const { ctx, setForm } = makeCtx([]);
    setForm({ title: 'Sea View', total_rooms: 12, version: 4 });
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data: {} }));
    await dispatch(
      [
        {
          type: 'submit',
          endpoint: '/hms_ms/api/v1/onboard/leads/PO1A2B3C4D5E/sections/basic_info',
          method: 'PUT',
          body: {
            data: { title: { var: 'form.title' }, total_rooms: { var: 'form.total_rooms' } },
            version: { var: 'form.version' },
            draft: false,
          },
        },
      ],
      ctx,
    );
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toEqual({
      data: { title: 'Sea View', total_rooms: 12 },
      version: 4,
      draft: false,
    });
  });

  it('waits for the draft saves before reading the form, and stops after a version conflict', async () => {
    const { ctx, setForm, store } = makeCtx([]);
    setForm({ version: 4 });
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data: {} }));
    const submit: Action = {
      type: 'submit',
      endpoint: '/x',
      method: 'PUT',
      body: { version: { var: 'form.version' } },
    };
    const settled = {
      ...ctx,
      settleDrafts: vi.fn(async () => {
        store.set(formValuesAtom, { sign_up: { version: 5 } });
        return true;
      }),
    };
    expect(await dispatch([submit], settled)).toBe(true);
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toEqual({ version: 5 });

    const conflicted = { ...ctx, settleDrafts: vi.fn(async () => false) };
    expect(await dispatch([submit], conflicted)).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('dispatch: fetch', () => {
  const reverse: Action = {
    type: 'fetch',
    endpoint: '/hms_ms/api/v1/places/reverse',
    quiet: true,
    query: { lat: { var: 'form.latitude' }, lng: { var: 'form.longitude' }, near: { var: 'form.none' } },
    on_success: [
      { type: 'set_value', field: 'city', value: { var: 'response.data.place.name' } },
      { type: 'set_value', field: 'closest', value: { var: 'response.data.closest.0.name' } },
    ],
    on_error: [{ type: 'set_value', field: 'lookup_error', value: { var: 'response.error.code' } }],
  };

  it('GETs the endpoint with the query resolved over {form} (missing values left out), then on_success', async () => {
    const { ctx, setForm, form, host } = makeCtx([]);
    setForm({ latitude: 28.459497, longitude: 77.026638 });
    fetchMock.mockResolvedValue(
      jsonResponse(200, {
        success: true,
        data: { place: { name: 'Gurugram' }, closest: [{ name: 'Sector 29' }] },
      }),
    );
    expect(await dispatch([reverse], ctx)).toBe(true);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/hms_ms/api/v1/places/reverse?lat=28.459497&lng=77.026638');
    expect(init!.method).toBe('GET');
    expect(init!.body).toBeUndefined();
    expect(form()).toMatchObject({ city: 'Gurugram', closest: 'Sector 29' });
    expect(host.toast).not.toHaveBeenCalled();
  });

  it('quiet: a failure shows no toast, runs on_error with the error body and stops the list', async () => {
    const { ctx, setForm, form, host } = makeCtx([]);
    setForm({ latitude: 1, longitude: 2 });
    fetchMock.mockResolvedValue(
      jsonResponse(404, { success: false, error: { code: 'ONB_PLACE_NOT_FOUND', message: 'No place here' } }),
    );
    const ok = await dispatch([reverse, { type: 'navigate', to: '/dashboard' }], ctx);
    expect(ok).toBe(false);
    expect(host.toast).not.toHaveBeenCalled();
    expect(host.navigate).not.toHaveBeenCalled();
    expect(form().lookup_error).toBe('ONB_PLACE_NOT_FOUND');
  });

  it('without quiet a failure shows the extracted message as an error toast', async () => {
    const { ctx, host } = makeCtx([]);
    fetchMock.mockResolvedValue(
      jsonResponse(400, { success: false, error: { code: 'ONB_BAD_QUERY', message: 'Invalid Input' } }),
    );
    const ok = await dispatch([{ type: 'fetch', endpoint: '/hms_ms/api/v1/places/search' }], ctx);
    expect(ok).toBe(false);
    expect(host.toast).toHaveBeenCalledWith({ text: 'Invalid Input', status: 'error' });
    expect(fetchMock.mock.calls[0]![0]).toBe('/hms_ms/api/v1/places/search');
  });

  it('reads response of an enclosing list (a widget scope or a previous answer) in its query', async () => {
    const { ctx, form } = makeCtx([]);
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data: { place: { name: 'Gurugram' } } }));
    const scoped = { ...ctx, response: { success: true, data: { lat: 28.4601, lng: 77.02635 } } };
    await dispatch(
      [
        {
          type: 'fetch',
          endpoint: '/hms_ms/api/v1/places/reverse',
          query: { lat: { var: 'response.data.lat' }, lng: { var: 'response.data.lng' } },
          on_success: [{ type: 'set_value', field: 'city', value: { var: 'response.data.place.name' } }],
        },
      ],
      scoped,
    );
    expect(fetchMock.mock.calls[0]![0]).toBe('/hms_ms/api/v1/places/reverse?lat=28.4601&lng=77.02635');
    expect(form().city).toBe('Gurugram');
  });
  it('drops an answer that arrives after a newer fetch to the same endpoint started (the newer one wins)', async () => {
    const { ctx, setForm, form } = makeCtx([]);
    let answerFirst: (r: Response) => void = () => undefined;
    fetchMock
      .mockImplementationOnce(() => new Promise<Response>((resolve) => (answerFirst = resolve)))
      .mockResolvedValueOnce(
        jsonResponse(200, { success: true, data: { place: { name: 'Jaipur' }, closest: [] } }),
      );
    setForm({ latitude: 28.46, longitude: 77.03 });
    const older = dispatch([reverse], ctx);
    setForm({ latitude: 26.91, longitude: 75.79 });
    expect(await dispatch([reverse], ctx)).toBe(true);
    expect(form().city).toBe('Jaipur');
    answerFirst(jsonResponse(200, { success: true, data: { place: { name: 'Gurugram' }, closest: [] } }));
    expect(await older).toBe(true);
    expect(form().city).toBe('Jaipur');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('dispatch: submit on_error_codes', () => {
  const createLead: Action = {
    type: 'submit',
    endpoint: '/hms_ms/api/v1/onboard/leads',
    method: 'POST',
    body: { title: { var: 'form.title' } },
    on_error_codes: {
      ONB_PROPERTY_MATCH: [
        { type: 'set_value', field: 'matched_name', value: { var: 'response.error.details.name' } },
        { type: 'open_popup', popup_id: 'is_this_your_property' },
      ],
    },
    on_error: [{ type: 'set_value', field: 'generic_error', value: true }],
  };
  const titleWidget: WidgetEnvelope = {
    id: 'title',
    widget_type: 'input',
    contents: { field: 'title', kind: 'text', label: 'Property name' },
  };

  it('runs the actions of a listed code with the error body, instead of the toast, field error and on_error', async () => {
    const { ctx, setForm, form, errors, host, store } = makeCtx([titleWidget]);
    setForm({ title: 'Sea View' });
    fetchMock.mockResolvedValue(
      jsonResponse(409, {
        success: false,
        error: {
          code: 'ONB_PROPERTY_MATCH',
          message: 'Is this your property?',
          field: 'title',
          details: { name: 'Sea View Residency' },
        },
      }),
    );
    expect(await dispatch([createLead], ctx)).toBe(false);
    expect(form().matched_name).toBe('Sea View Residency');
    expect(store.get(openPopupAtom)).toBe('is_this_your_property');
    expect(host.toast).not.toHaveBeenCalled();
    expect(errors().title).toBeUndefined();
    expect(form().generic_error).toBeUndefined();
  });

  it('handles other codes as before: toast (or field error) and on_error', async () => {
    const { ctx, setForm, form, host, store } = makeCtx([titleWidget]);
    setForm({ title: 'Sea View' });
    fetchMock.mockResolvedValue(
      jsonResponse(422, { success: false, error: { code: 'ONB_NOT_SERVICEABLE', message: 'Not here' } }),
    );
    expect(await dispatch([createLead], ctx)).toBe(false);
    expect(host.toast).toHaveBeenCalledWith({ text: 'Not here', status: 'error' });
    expect(form().generic_error).toBe(true);
    expect(store.get(openPopupAtom)).toBeNull();
  });

  it('ignores codes inherited from Object.prototype', async () => {
    const { ctx, host } = makeCtx([]);
    fetchMock.mockResolvedValue(
      jsonResponse(400, { success: false, error: { code: 'constructor', message: 'Odd' } }),
    );
    expect(await dispatch([createLead], ctx)).toBe(false);
    expect(host.toast).toHaveBeenCalledWith({ text: 'Odd', status: 'error' });
  });
});

describe('dispatch: analytics (issue 15 item 1)', () => {
  it("sends an action's analytics block once each time it runs, with its rules read over {response}", async () => {
    const { ctx, host } = makeCtx();
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { success: true, data: { status: 'LIVE' } }));
    const actions: Action[] = [
      {
        type: 'submit',
        endpoint: '/hms_ms/api/v1/onboard/leads/PO1234567890/publish',
        method: 'POST',
        on_success: [
          {
            type: 'navigate',
            to: '/welcome',
            analytics: {
              event: 'welcome_opened',
              properties: {
                status: { var: 'response.data.status' },
                missing: { var: 'response.data.nope' },
                n: 2,
              },
            },
          },
        ],
      },
    ];
    expect(await dispatch(actions, ctx)).toBe(true);
    await vi.waitFor(() => expect(host.logEvent).toHaveBeenCalledTimes(2));
    expect(host.logEvent.mock.calls).toEqual([
      ['submit_success', { endpoint: '/hms_ms/api/v1/onboard/leads/:id/publish', method: 'POST' }, 'sign_up'],
      ['welcome_opened', { status: 'LIVE', missing: null, n: 2 }, 'sign_up'],
    ]);
  });

  it('sends submit_error with the status and error code, and never reads the form into a property', async () => {
    const { ctx, host, setForm } = makeCtx();
    setForm({ phone: '+919876543210' });
    fetchMock.mockResolvedValueOnce(
      jsonResponse(422, { success: false, error: { code: 'ONB_PUBLISH_NOT_READY', message: 'Not ready' } }),
    );
    const ok = await dispatch(
      [
        {
          type: 'submit',
          endpoint: '/hms_ms/api/v1/onboard/leads/PO1234567890/publish',
          method: 'POST',
          analytics: { event: 'publish_tapped', properties: { typed: { var: 'form.phone' } } },
        },
      ],
      ctx,
    );
    expect(ok).toBe(false);
    await vi.waitFor(() => expect(host.logEvent).toHaveBeenCalledTimes(2));
    // The block's module loads on first use: its event may come after the submit's own.
    expect(host.logEvent.mock.calls).toEqual(
      expect.arrayContaining([
        ['publish_tapped', { typed: null }, 'sign_up'],
        [
          'submit_error',
          {
            endpoint: '/hms_ms/api/v1/onboard/leads/:id/publish',
            method: 'POST',
            status: 422,
            error_code: 'ONB_PUBLISH_NOT_READY',
          },
          'sign_up',
        ],
      ]),
    );
  });

  it('says status 0 for a submit that got no answer', async () => {
    const { ctx, host } = makeCtx();
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await dispatch([{ type: 'submit', endpoint: '/hms_ms/api/v2/request_otp', method: 'POST' }], ctx);
    expect(host.logEvent).toHaveBeenCalledWith(
      'submit_error',
      { endpoint: '/hms_ms/api/v2/request_otp', method: 'POST', status: 0, error_code: null },
      'sign_up',
    );
  });

  it('track sends its block once over the response and writes no form field (SPEC §3 location event)', async () => {
    const { ctx, host, setForm, form } = makeCtx();
    setForm({ phone: '+919876543210' });
    const track = {
      type: 'track',
      analytics: { event: 'location_permission', properties: { result: { var: 'response.data.result' } } },
    } as const;
    expect(await dispatch([track], { ...ctx, response: { success: true, data: { result: 'denied' } } })).toBe(
      true,
    );
    await vi.waitFor(() => expect(host.logEvent).toHaveBeenCalledTimes(1));
    expect(host.logEvent).toHaveBeenCalledWith('location_permission', { result: 'denied' }, 'sign_up');
    expect(form()).toEqual({ phone: '+919876543210' });
  });

  it('sends nothing for actions without a block except the submit events', async () => {
    const { ctx, host } = makeCtx();
    await dispatch([{ type: 'navigate', to: '/dashboard' }, { type: 'close_popup' }], ctx);
    expect(host.logEvent).not.toHaveBeenCalled();
  });
});
