import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accessTokenAtom, activeHotelIdAtom, appStore, loginTypeAtom } from '../state/atoms';
import { i18n } from '../i18n/instance';
import {
  ApiError,
  apiRequest,
  apiUpload,
  extractErrorMessage,
  setAccessToken,
  setUnauthorizedHandler,
} from './client';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  appStore.set(activeHotelIdAtom, null);
  void i18n.changeLanguage('en-GB');
});

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(null);
  appStore.set(activeHotelIdAtom, null);
  appStore.set(loginTypeAtom, null);
  setAccessToken(null);
});

describe('apiRequest', () => {
  it('sends the language header, credentials and a JSON body, and returns data of the envelope', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data: { phone: '+919876543210' } }));
    const data = await apiRequest<{ phone: string }>('/hms_ms/api/v2/request_otp', {
      method: 'POST',
      body: { phone: '9876543210' },
    });
    expect(data).toEqual({ phone: '+919876543210' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/hms_ms/api/v2/request_otp');
    const headers = init!.headers as Record<string, string>;
    expect(headers.httpxoyolang).toBe('en-GB');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['x-qid']).toBeUndefined();
    expect(init!.credentials).toBe('include');
    expect(init!.method).toBe('POST');
    expect(JSON.parse(init!.body as string)).toEqual({ phone: '9876543210' });
  });

  it('adds x-qid and the qid query when an active hotel is set, after the other query values', async () => {
    appStore.set(activeHotelIdAtom, 'H42');
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data: {} }));
    await apiRequest('/hms_ms/api/v1/feature-metadata', { query: { features: 'a,b', skip: undefined } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/hms_ms/api/v1/feature-metadata?features=a%2Cb&qid=H42');
    expect((init!.headers as Record<string, string>)['x-qid']).toBe('H42');
  });

  it('marks every call of an sso session with x-login-type: sso, and stops after the login type is cleared', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, { success: true, data: {} }));
    appStore.set(loginTypeAtom, 'sso');
    expect(localStorage.getItem('login_type')).toBe('sso');
    await apiRequest('/a');
    await apiRequest('/b', { method: 'POST', body: {} });
    appStore.set(loginTypeAtom, null);
    await apiRequest('/c');
    const sent = fetchMock.mock.calls.map(
      ([, init]) => (init!.headers as Record<string, string>)['x-login-type'],
    );
    expect(sent).toEqual(['sso', 'sso', undefined]);
  });

  it('adds the access-token header and the micro-front-end sign-in type when an access token is supplied', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, { success: true, data: {} }));
    await apiRequest('/a');
    setAccessToken('host-token-1');
    await apiRequest('/b');
    const [first, second] = fetchMock.mock.calls.map(([, init]) => init!.headers as Record<string, string>);
    expect(first!['access-token']).toBeUndefined();
    expect(first!['x-sign-in-type']).toBeUndefined();
    expect(second!['access-token']).toBe('host-token-1');
    expect(second!['x-sign-in-type']).toBe('mfe');
    expect(appStore.get(accessTokenAtom)).toBe('host-token-1');
  });

  it('sends the current language after a change', async () => {
    await i18n.changeLanguage('ar');
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data: 1 }));
    await apiRequest('/x');
    expect((fetchMock.mock.calls[0]![1]!.headers as Record<string, string>).httpxoyolang).toBe('ar');
  });

  it('resolves undefined for 204', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(
      apiRequest('/hms_ms/api/v1/onboard/users/sign_out', { method: 'POST' }),
    ).resolves.toBeUndefined();
  });

  it('treats success:false in a 200 as an error with code and field', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(200, {
        success: false,
        error: { code: 'ONB_X', message: 'Invalid Input', field: 'phone' },
      }),
    );
    const error = await apiRequest('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: 'ONB_X', field: 'phone', message: 'Invalid Input' });
  });

  it('gives a 4xx its status, parsed body, code, field and message', async () => {
    const body = {
      success: false,
      error: { code: 'ONB_OTP_INCORRECT', message: 'Please enter correct OTP', field: 'otp' },
    };
    fetchMock.mockResolvedValue(jsonResponse(400, body));
    const error = (await apiRequest('/hms_ms/api/v2/verify_otp', { method: 'POST' }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error.status).toBe(400);
    expect(error.body).toEqual(body);
    expect(error.field).toBe('otp');
    expect(error.message).toBe('Please enter correct OTP');
  });

  it('keeps an HTML 4xx body as text', async () => {
    fetchMock.mockResolvedValue(
      new Response('<html>nope</html>', { status: 404, headers: { 'content-type': 'text/html' } }),
    );
    const error = (await apiRequest('/x').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(404);
    expect(error.body).toBe('<html>nope</html>');
    expect(error.message).toBe('Something went wrong');
  });

  it('hides 5xx messages behind the translated internal-server-error text', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(503, { success: false, error: { code: 'X', message: 'db down at 10.0.0.3' } }),
    );
    const error = (await apiRequest('/x').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(503);
    expect(error.message).toBe('Internal Server Error');
  });

  it('turns a network failure into the unable-to-connect text', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = (await apiRequest('/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(error.message).toBe(i18n.t('shell.errors.unable_to_connect'));
    expect(error.message).toMatch(/unable to connect/i);
  });

  it('calls the unauthorized handler on 401', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    fetchMock.mockResolvedValue(
      jsonResponse(401, {
        success: false,
        error: { code: 'ONB_UNAUTHENTICATED', message: 'Session Expired' },
      }),
    );
    await expect(apiRequest('/hms_ms/api/v1/screens/dashboard')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0]![0]).toBeInstanceOf(ApiError);
  });

  it('does not call the unauthorized handler for other errors', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    fetchMock.mockResolvedValue(jsonResponse(403, { success: false, error: { message: 'no' } }));
    await expect(apiRequest('/x')).rejects.toBeInstanceOf(ApiError);
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('extractErrorMessage (SPEC §8 order)', () => {
  it('prefers the error’s own message', () => {
    expect(extractErrorMessage({ message: 'own', body: { error: { message: 'nested' } } })).toBe('own');
  });
  it('then body.error.message', () => {
    expect(extractErrorMessage({ body: { error: { message: 'nested' }, message: 'top' } })).toBe('nested');
  });
  it('then body.error as a string', () => {
    expect(extractErrorMessage({ body: { error: 'plain', message: 'top' } })).toBe('plain');
  });
  it('then body.message', () => {
    expect(extractErrorMessage({ body: { message: 'top' } })).toBe('top');
  });
  it("else 'Something went wrong', in the current language", async () => {
    expect(extractErrorMessage({ body: '<html></html>' })).toBe('Something went wrong');
    expect(extractErrorMessage(undefined)).toBe('Something went wrong');
    expect(extractErrorMessage(new Error(''))).toBe('Something went wrong');
    i18n.addResourceBundle(
      'ar',
      'translation',
      { shell: { errors: { something_went_wrong: 'حدث خطأ ما' } } },
      true,
      true,
    );
    await i18n.changeLanguage('ar');
    expect(extractErrorMessage(undefined)).toBe('حدث خطأ ما');
    await i18n.changeLanguage('en-GB');
  });
});

/**
 * A stand-in for XMLHttpRequest (jsdom's would try the network): records what apiUpload sets and sends, and
 * lets a test play the events a browser fires — upload progress, upload load, then load / error / abort.
 */
class FakeXhr extends EventTarget {
  static made: FakeXhr[] = [];
  readonly upload = new EventTarget();
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  body: unknown = undefined;
  sent = false;
  aborted = false;
  status = 0;
  responseText = '';
  private responseType = '';

  constructor() {
    super();
    FakeXhr.made.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.sent = true;
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.dispatchEvent(new ProgressEvent('abort'));
  }
  getResponseHeader(name: string) {
    return name.toLowerCase() === 'content-type' && this.responseType ? this.responseType : null;
  }
  progress(loaded: number, total: number, lengthComputable = true) {
    this.upload.dispatchEvent(new ProgressEvent('progress', { loaded, total, lengthComputable }));
  }
  respond(status: number, body: unknown, type = 'application/json; charset=utf-8') {
    this.upload.dispatchEvent(new ProgressEvent('load'));
    this.status = status;
    this.responseType = type;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.dispatchEvent(new ProgressEvent('load'));
  }
  fail() {
    this.dispatchEvent(new ProgressEvent('error'));
  }
}

const lastXhr = () => FakeXhr.made[FakeXhr.made.length - 1]!;

function photoForm(bytes = 3000): FormData {
  const form = new FormData();
  form.append('category', 'room');
  form.append('client_upload_id', '00000000-0000-4000-8000-000000000001');
  form.append('file', new File([new Uint8Array(bytes)], 'room.jpg', { type: 'image/jpeg' }));
  return form;
}

const UPLOAD_PATH = '/hms_ms/api/v1/onboard/leads/PO1/images';

describe('apiUpload (SPEC §7 image upload with progress)', () => {
  beforeEach(() => {
    FakeXhr.made = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });

  it('POSTs the form with the common headers, no Content-Type, credentials, and resolves data', async () => {
    appStore.set(activeHotelIdAtom, 'H42');
    const form = photoForm();
    const pending = apiUpload<{ image: { image_id: string } }>(UPLOAD_PATH, form);
    const xhr = lastXhr();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(`${UPLOAD_PATH}?qid=H42`);
    expect(xhr.headers).toEqual({ Accept: 'application/json', httpxoyolang: 'en-GB', 'x-qid': 'H42' });
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.body).toBe(form);
    xhr.respond(201, { success: true, data: { image: { image_id: 'abc' } } });
    await expect(pending).resolves.toEqual({ image: { image_id: 'abc' } });
  });

  it('carries the sso header on uploads too', async () => {
    appStore.set(loginTypeAtom, 'sso');
    void apiUpload(UPLOAD_PATH, photoForm()).catch(() => undefined);
    expect(lastXhr().headers['x-login-type']).toBe('sso');
  });

  it('reports progress in bytes, the file size when the total is unknown, and when every byte is sent', async () => {
    const progress: [number, number][] = [];
    const onSent = vi.fn();
    const pending = apiUpload(UPLOAD_PATH, photoForm(3000), {
      onProgress: (loaded, total) => progress.push([loaded, total]),
      onSent,
    });
    const xhr = lastXhr();
    xhr.progress(1024, 3400);
    xhr.progress(2000, 0, false);
    expect(progress).toEqual([
      [1024, 3400],
      [2000, 3000],
    ]);
    expect(onSent).not.toHaveBeenCalled();
    xhr.respond(201, { success: true, data: {} });
    await pending;
    expect(onSent).toHaveBeenCalledTimes(1);
  });

  it('rejects a 409 with its status, code and the server’s message', async () => {
    const pending = apiUpload(UPLOAD_PATH, photoForm());
    const message = 'This image has already been uploaded. Please re-upload a new image';
    lastXhr().respond(409, { success: false, error: { code: 'ONB_IMAGE_DUPLICATE', message } });
    const error = (await pending.catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'ONB_IMAGE_DUPLICATE', message });
  });

  it('hides a 5xx message, keeps an HTML 4xx body as text, and turns a network error into status 0', async () => {
    const five = apiUpload(UPLOAD_PATH, photoForm());
    lastXhr().respond(500, { success: false, error: { code: 'X', message: 'sharp crashed at /data' } });
    await expect(five).rejects.toMatchObject({ status: 500, message: 'Internal Server Error' });

    const html = apiUpload(UPLOAD_PATH, photoForm());
    lastXhr().respond(413, '<html>Too large</html>', 'text/html');
    await expect(html).rejects.toMatchObject({ status: 413, body: '<html>Too large</html>' });

    const offline = apiUpload(UPLOAD_PATH, photoForm());
    lastXhr().fail();
    const error = (await offline.catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(error.message).toBe(i18n.t('shell.errors.unable_to_connect'));
  });

  it('calls the unauthorized handler on 401', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    const pending = apiUpload(UPLOAD_PATH, photoForm());
    lastXhr().respond(401, {
      success: false,
      error: { code: 'ONB_UNAUTHENTICATED', message: 'Session Expired' },
    });
    await expect(pending).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('aborts with the signal and rejects with an AbortError; an aborted signal sends nothing', async () => {
    const controller = new AbortController();
    const pending = apiUpload(UPLOAD_PATH, photoForm(), { signal: controller.signal });
    controller.abort();
    expect(lastXhr().aborted).toBe(true);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    FakeXhr.made = [];
    await expect(apiUpload(UPLOAD_PATH, photoForm(), { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(FakeXhr.made).toHaveLength(0);
  });
});

describe('a 403 without a message of its own (SPEC §8, issue 12 item 23)', () => {
  it("reads 'You do not have rights to view/modify'", async () => {
    fetchMock.mockResolvedValueOnce(
      new Response('<html>Forbidden</html>', { status: 403, headers: { 'content-type': 'text/html' } }),
    );
    await expect(apiRequest('/hms_ms/api/v1/anything')).rejects.toMatchObject({
      status: 403,
      message: 'You do not have rights to view/modify',
    });
  });
});
