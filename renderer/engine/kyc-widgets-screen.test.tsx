/**
 * The KYC widgets inside a real Screen: the real registry (their chunks and their validator modules load
 * lazily), the real upload manager in the app's jotai store and the real API client, with
 * the network replaced at the transport — fetch for the screen, the code requests and the polls, a fake
 * XMLHttpRequest for the upload — and `createImageBitmap` replaced by a stand-in that decodes PNG bytes for
 * real (jsdom has no image decoder; see widgets/test-png.ts).
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider as JotaiProvider, createStore } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  ContactVerificationContents,
  DocumentUploaderContents,
  KycDocument,
  ScreenPayload,
} from '../../schemas/generated/types';
import { fixtureContents } from '../../widgets/fixtures';
import { fakeCreateImageBitmap, pngFile } from '../../widgets/test-png';
import { i18n } from '../i18n/instance';
import type { AppStore } from '../state/atoms';
import { Screen } from './screen';
import { uploadManagerFor } from '../api/uploads';

/** ms to wait for a lazy widget's chunk (slow under a full parallel test run). */
const LAZY_TIMEOUT_MS = 5000;

const email = fixtureContents<ContactVerificationContents>('contact_verification', 'email');
const documentContents = fixtureContents<DocumentUploaderContents>('document_uploader', 'empty');
const processing = fixtureContents<DocumentUploaderContents>('document_uploader', 'processing').document!;

function payload(): ScreenPayload {
  return {
    screen_id: 'kyc',
    schema_version: 1,
    form: { initial: { email_address: 'Owner@Example.com', id_type: 'pan' } },
    widget_list: [
      {
        id: 'email_address',
        widget_type: 'input',
        contents: { field: 'email_address', kind: 'email', label: 'E-mail' },
      },
      { id: 'email_verification', widget_type: 'contact_verification', contents: email },
      {
        id: 'id_document',
        widget_type: 'document_uploader',
        contents: { ...documentContents, poll_interval_ms: 1000, on_change: [] },
      },
    ],
  };
}

function answer(data: unknown, status = 200): Response {
  return new Response(JSON.stringify({ success: true, data }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function refusal(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ success: false, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The upload requests the page made; each can be played forward (progress, answer). */
class FakeXhr extends EventTarget {
  static made: FakeXhr[] = [];
  readonly upload = new EventTarget();
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  constructor() {
    super();
    FakeXhr.made.push(this);
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.dispatchEvent(new ProgressEvent('abort'));
  }
  getResponseHeader(name: string) {
    return name.toLowerCase() === 'content-type' ? 'application/json' : null;
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(new ProgressEvent('progress', { loaded, total, lengthComputable: true }));
  }
  respond(status: number, body: unknown) {
    this.upload.dispatchEvent(new ProgressEvent('load'));
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new ProgressEvent('load'));
  }
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;
const fetchMock = vi.fn<typeof fetch>();
let handlers: Handler[];
let store: AppStore;

/** Answers the screen request with the payload, every other request with the next handler. */
function serve() {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url.startsWith('/hms_ms/api/v1/screens/')) return answer(payload());
    const next = handlers.shift();
    if (!next) throw new Error(`unexpected request ${url}`);
    return next(url, init ?? {});
  });
}

const requests = () =>
  fetchMock.mock.calls
    .filter(([input]) => !String(input).startsWith('/hms_ms/api/v1/screens/'))
    .map(([input, init]) => ({
      url: String(input),
      method: init?.method,
      headers: init?.headers as Record<string, string>,
      body: init?.body === undefined ? undefined : (JSON.parse(String(init.body)) as unknown),
    }));

function page() {
  return (
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <Screen screenId="kyc" />
      </I18nextProvider>
    </JotaiProvider>
  );
}

beforeEach(() => {
  FakeXhr.made = [];
  handlers = [];
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('createImageBitmap', fakeCreateImageBitmap);
  localStorage.setItem('isLoggedIn', 'true');
  store = createStore();
  void i18n.changeLanguage('en-GB');
  serve();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
});

describe('contact_verification on a screen', () => {
  it('posts the code requests through the API client and shows Verified', async () => {
    const user = userEvent.setup();
    render(page());
    const verify = await screen.findByRole(
      'button',
      { name: 'Verify (e-mail address)' },
      { timeout: LAZY_TIMEOUT_MS },
    );
    handlers.push(() =>
      answer({
        channel: 'email',
        destination: 'owner@example.com',
        otp_length: 4,
        expires_in_s: 600,
        resend_after_s: 30,
      }),
    );
    await user.click(verify);
    const code = await screen.findByRole('textbox', { name: 'Verification code' });
    handlers.push(() => refusal(400, 'ONB_OTP_INCORRECT', 'Please enter correct OTP'));
    await user.type(code, '1111');
    expect(await screen.findAllByText('Please enter correct OTP')).not.toHaveLength(0);
    handlers.push(() =>
      answer({
        channel: 'email',
        destination: 'owner@example.com',
        verified: true,
        is_another_user_present: false,
      }),
    );
    await user.type(code, '4321');
    expect(await screen.findByLabelText('Verified (e-mail address)')).toBeInTheDocument();

    const sent = requests();
    expect(sent.map((r) => [r.method, r.url, r.body])).toEqual([
      ['POST', email.send_endpoint, { channel: 'email', value: 'Owner@Example.com' }],
      ['POST', email.verify_endpoint, { channel: 'email', value: 'Owner@Example.com', otp: '1111' }],
      ['POST', email.verify_endpoint, { channel: 'email', value: 'Owner@Example.com', otp: '4321' }],
    ]);
    expect(sent[0]!.headers).toMatchObject({ httpxoyolang: 'en-GB', 'Content-Type': 'application/json' });

    // Editing the e-mail (the input widget of the same form) drops the badge.
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'x');
    expect(screen.queryByLabelText('Verified (e-mail address)')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify (e-mail address)' })).toBeEnabled();
  });
});

describe('document_uploader on a screen', () => {
  it('uploads with id_type through the manager, then polls the document until its verdict', async () => {
    const user = userEvent.setup();
    render(page());
    const input = await screen.findByLabelText('Upload a photo', {}, { timeout: LAZY_TIMEOUT_MS });
    await user.upload(input, pngFile(800, 1200, 'pan.png'));

    await waitFor(() => expect(FakeXhr.made).toHaveLength(1));
    const xhr = FakeXhr.made[0]!;
    expect(xhr.url).toBe(documentContents.endpoint);
    expect([...xhr.body!.keys()]).toEqual(['id_type', 'client_upload_id', 'file']);
    expect(xhr.body!.get('id_type')).toBe('pan');
    expect(xhr.headers.httpxoyolang).toBe('en-GB');
    act(() => xhr.progress(300, 1000));
    expect(screen.getByRole('progressbar', { name: 'Upload progress of the photo' })).toHaveAttribute(
      'aria-valuenow',
      '30',
    );

    vi.useFakeTimers({ shouldAdvanceTime: true });
    const document: KycDocument = { ...processing, status: 'processing' };
    handlers.push(() => answer({ document }));
    handlers.push(() =>
      answer({
        document: { ...document, status: 'mismatch', message: 'Uploaded Image is of different IdType' },
      }),
    );
    act(() => xhr.respond(202, { success: true, data: { document } }));
    await waitFor(() =>
      expect(uploadManagerFor(store).items(documentContents.endpoint, 'kyc_document')).toEqual([]),
    );
    expect(screen.getAllByText(documentContents.texts.status.processing).length).toBeGreaterThan(0);

    await act(async () => vi.advanceTimersByTime(1000));
    await act(async () => vi.advanceTimersByTime(1000));
    expect((await screen.findAllByText('Uploaded Image is of different IdType')).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Upload another photo' })).toBeEnabled();
    expect(requests().map((r) => [r.method ?? 'GET', r.url])).toEqual([
      ['GET', `${documentContents.endpoint}/${document.document_id}`],
      ['GET', `${documentContents.endpoint}/${document.document_id}`],
    ]);
  });
});
