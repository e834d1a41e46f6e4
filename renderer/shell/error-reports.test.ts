import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../api/client';
import { reportWidgetEvent, WIDGET_CRASHED } from '../engine/reports';
import { createAnalyticsQueue } from './analytics';
import { resetReporter } from '../api/error-reporter';
import { installErrorReporting } from './error-reports';

const fetchMock = vi.fn<typeof fetch>();

/** The reports the page has sent to the errors endpoint so far. */
const sentReports = () =>
  fetchMock.mock.calls
    .filter(([url]) => url === '/hms_ms/api/v1/errors')
    .flatMap(
      ([, init]) => (JSON.parse(String(init?.body)) as { reports: Record<string, unknown>[] }).reports,
    );

beforeAll(() => installErrorReporting(window));
beforeEach(() => {
  resetReporter();
  fetchMock.mockReset();
  fetchMock.mockResolvedValue(new Response(null, { status: 202 }));
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const wait = { timeout: 4000 };

describe('error reporting in the browser (issue 15 item 3)', () => {
  it('sends a script error with its stack and the page, once however often it repeats', async () => {
    const error = new TypeError('x is undefined');
    for (let i = 0; i < 3; i += 1) {
      window.dispatchEvent(new ErrorEvent('error', { message: 'Uncaught TypeError: x is undefined', error }));
    }
    await vi.waitFor(() => expect(sentReports()).toHaveLength(1), wait);
    expect(sentReports()[0]).toMatchObject({
      kind: 'error',
      message: 'Uncaught TypeError: x is undefined',
      stack: error.stack,
      page: window.location.pathname,
    });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init).toMatchObject({ method: 'POST', keepalive: true });
  });

  it('sends an unhandled rejection', async () => {
    const event = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(event, 'reason', { value: new Error('lost promise') });
    window.dispatchEvent(event);
    await vi.waitFor(
      () =>
        expect(sentReports()).toEqual([
          expect.objectContaining({ kind: 'unhandled_rejection', message: 'lost promise' }),
        ]),
      wait,
    );
  });

  it("sends a widget's crash and an invalid payload as the engine reports them", async () => {
    reportWidgetEvent(WIDGET_CRASHED('task', 'checklist', '/widget_list/3', new Error('boom')));
    window.dispatchEvent(
      new CustomEvent('widget-report', {
        detail: {
          code: 'INVALID_CONTENTS',
          screenId: 'task',
          widgetId: 'x',
          path: '/widget_list/1/contents/label',
          message: 'Invalid contents',
        },
      }),
    );
    await vi.waitFor(() => expect(sentReports()).toHaveLength(2), wait);
    expect(sentReports()).toEqual([
      expect.objectContaining({
        kind: 'widget_crash',
        screen_id: 'task',
        widget_id: 'checklist',
        path: '/widget_list/3',
      }),
      expect.objectContaining({ kind: 'invalid_payload', path: '/widget_list/1/contents/label' }),
    ]);
  });

  it("sends an API 5xx answer with the path and the answer's request id", async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ success: false, error: { message: 'x' } }), {
        status: 503,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-503' },
      }),
    );
    await expect(apiRequest('/hms_ms/api/v1/onboard/leads?x=1')).rejects.toMatchObject({ status: 503 });
    await vi.waitFor(() => expect(sentReports()).toHaveLength(1), wait);
    expect(sentReports()[0]).toMatchObject({
      kind: 'api_5xx',
      status: 503,
      path: '/hms_ms/api/v1/onboard/leads',
      request_id: 'req-503',
    });
  });

  it('does not report a 4xx answer', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ success: false, error: { message: 'no' } }), {
        status: 422,
        headers: { 'content-type': 'application/json' },
      }),
    );
    await expect(apiRequest('/hms_ms/api/v1/onboard/leads')).rejects.toMatchObject({ status: 422 });
    // A later report arrives alone: the 4xx was never queued before it.
    window.dispatchEvent(new ErrorEvent('error', { message: 'after the 4xx' }));
    await vi.waitFor(() => expect(sentReports()).toHaveLength(1), wait);
    expect(sentReports()[0]).toMatchObject({ message: 'after the 4xx' });
  });

  it('reports a personal analytics property the queue dropped, naming the key and not the value', async () => {
    const queue = createAnalyticsQueue({
      win: window,
      newSessionId: () => '00000000-0000-4000-8000-000000000000',
    });
    queue.log('lead_saved', { owner_email: 'a@b.co', task: 'kyc' });
    expect(queue.pending()[0]?.properties).toEqual({ task: 'kyc' });
    queue.stop();
    await vi.waitFor(() => expect(sentReports()).toHaveLength(1), wait);
    expect(sentReports()[0]).toMatchObject({
      kind: 'invalid_event',
      message: 'analytics dropped property lead_saved.owner_email',
    });
    expect(JSON.stringify(sentReports())).not.toContain('a@b.co');
  });
});
