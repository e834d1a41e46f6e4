import { render, screen as view } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/instance';
import { frameUrl, PreviewFrame } from './preview-page';

afterEach(() => {
  vi.unstubAllGlobals();
  void i18n.changeLanguage('en-GB');
});

/** A fetch answering the preview API's check with `check`, and any other call (translations) with nothing. */
function stubFetch(check: unknown) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, headers: (init?.headers ?? {}) as Record<string, string> });
      const body = url.includes('/preview/check/') ? { success: true, data: check } : { success: false };
      return new Response(JSON.stringify(body), {
        status: url.includes('/preview/check/') ? 200 : 404,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

describe('PreviewFrame', () => {
  it("shows the composer's file, JSON path and reason in the frame's language instead of the screen", async () => {
    const calls = stubFetch({
      ok: false,
      file: 'fragments/task_footer.json',
      path: '/value/contents/label',
      detail:
        "translation key 'screens.task_details.sav' not found (used by task_details/amenities.json at /value/2)",
    });
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[frameUrl('task_details', 'owner-task-amenities.json', 'ar')]}>
          <PreviewFrame />
        </MemoryRouter>
      </I18nextProvider>,
    );
    const alert = await view.findByRole('alert');
    expect(alert).toHaveTextContent('fragments/task_footer.json /value/contents/label');
    expect(alert).toHaveTextContent("translation key 'screens.task_details.sav' not found");
    expect(document.querySelector('[data-preview-state]')).toHaveAttribute('data-preview-state', 'error');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    const check = calls.find((c) => c.url.includes('/preview/check/'))!;
    expect(check.url).toBe('/hms_ms/api/v1/preview/check/task_details?context=owner-task-amenities.json');
    expect(check.headers.httpxoyolang).toBe('ar');
  });
});
