import { render, screen as view, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { detectLanguage, i18n } from './instance';
import { LOCALES, directionOf, mapBrowserLanguage } from './languages';
import { PREVIEW_AREAS, loadTranslations, setLanguage } from './translations';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  localStorage.clear();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en-GB');
  document.documentElement.dir = 'ltr';
});

describe('language detection (SPEC §1)', () => {
  it('knows the 19 locales', () => {
    expect(LOCALES).toHaveLength(19);
    expect(LOCALES).toContain('en-GB');
    expect(LOCALES).toContain('ar');
  });

  it.each([
    ['ar-EG', 'ar'],
    ['fr', 'fr-FR'],
    ['fr-BE', 'fr-FR'],
    ['fr-CA', 'fr-CA'],
    ['fr-ca', 'fr-CA'],
    ['es', 'es-ES'],
    ['es-MX', 'es-MX'],
    ['es-419', 'es-MX'],
    ['pt-BR', 'pt'],
    ['zh-Hant-TW', 'zh'],
    ['zh-CN', 'zh'],
    ['en-US', 'en-GB'],
    ['en', 'en-GB'],
    ['de-AT', 'de'],
    ['in', 'id'],
    ['ko-KR', null],
  ])('%s → %s', (tag, locale) => {
    expect(mapBrowserLanguage(tag)).toBe(locale);
  });

  it('prefers the stored language, then the browser’s first supported language, then en-GB', () => {
    expect(detectLanguage({ languages: ['ko-KR', 'pt-BR', 'en-US'], language: 'ko-KR' })).toBe('pt');
    expect(detectLanguage({ languages: ['ko-KR'], language: 'ko-KR' })).toBe('en-GB');
    localStorage.setItem('language', 'hi');
    expect(detectLanguage({ languages: ['pt-BR'], language: 'pt-BR' })).toBe('hi');
    localStorage.setItem('language', 'klingon');
    expect(detectLanguage({ languages: ['de-DE'], language: 'de-DE' })).toBe('de');
  });
});

describe('setLanguage and translations', () => {
  it('switches to Arabic: remembered, <html lang="ar" dir="rtl">, server texts added and cached', async () => {
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({
          success: true,
          data: { language: 'ar', clientMessages: { shell: { session_expired: 'انتهت الجلسة' } } },
        }),
        {
          status: 200,
          headers: { 'content-type': 'application/json' },
        },
      ),
    );
    await setLanguage('ar');
    expect(localStorage.getItem('language')).toBe('ar');
    // Once the right-to-left styles have loaded.
    await vi.waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(directionOf('ar')).toBe('rtl');
    expect(i18n.t('shell.session_expired')).toBe('انتهت الجلسة');
    expect(i18n.t('shell.actions.refresh')).toBe('Refresh');
    expect(JSON.parse(localStorage.getItem('messages')!).ar.shell.session_expired).toBe('انتهت الجلسة');
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/hms_ms/api/v1/translations/ar');
  });

  it('falls back to the built-in en-GB texts when the fetch fails', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await loadTranslations('de')).toBe(false);
    await i18n.changeLanguage('de');
    expect(i18n.t('shell.not_found.title')).toBe("We couldn't find the page");
  });

  it('adds only the areas whose texts changed, and nothing when the language is unchanged (issue 13 item 4)', async () => {
    const reply = (clientMessages: Record<string, unknown>) =>
      new Response(JSON.stringify({ success: true, data: { language: 'en-GB', clientMessages } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    const builtIn = i18n.getResourceBundle('en-GB', 'translation') as Record<string, unknown>;
    const added: Record<string, unknown>[] = [];
    // i18next's types give the 'added' listener two arguments; the store passes the resources third.
    const onAdded = (...args: unknown[]) => {
      added.push(args[2] as Record<string, unknown>);
    };
    i18n.store.on('added', onAdded);
    try {
      // One built-in area as it is, one changed; `screens` and `errors` (the server's error messages, which
      // come translated in its answers), which the app does not read.
      const widgets = { ...(builtIn.widgets as Record<string, unknown>), extra: 'Something else' };
      const texts = {
        shell: builtIn.shell,
        widgets,
        errors: { generic: 'Something went wrong' },
        screens: { title: 'List your property' },
      };
      fetchMock.mockResolvedValueOnce(reply(texts));
      expect(await loadTranslations('en-GB')).toBe(true);
      expect(added.map((r) => Object.keys(r))).toEqual([['widgets']]);
      expect(i18n.t('widgets.extra')).toBe('Something else');
      expect(i18n.exists('screens.title')).toBe(false);
      expect(i18n.exists('errors.generic')).toBe(false);
      const cached = JSON.parse(localStorage.getItem('messages')!)['en-GB'];
      expect(Object.keys(cached).sort()).toEqual(['shell', 'widgets']);

      // The same texts again: no area is added, and the cache is left as it is.
      const setItem = vi.spyOn(Storage.prototype, 'setItem');
      fetchMock.mockResolvedValueOnce(reply(texts));
      expect(await loadTranslations('en-GB')).toBe(true);
      expect(added).toHaveLength(1);
      expect(setItem).not.toHaveBeenCalledWith('messages', expect.anything());
      setItem.mockRestore();

      // The staff preview asks for `screens` too: it is added, and kept beside the app's areas.
      fetchMock.mockResolvedValueOnce(reply(texts));
      expect(await loadTranslations('en-GB', undefined, PREVIEW_AREAS)).toBe(true);
      expect(added.map((r) => Object.keys(r))).toEqual([['widgets'], ['screens']]);
      expect(i18n.t('screens.title')).toBe('List your property');
      const both = JSON.parse(localStorage.getItem('messages')!)['en-GB'];
      expect(Object.keys(both).sort()).toEqual(['screens', 'shell', 'widgets']);
    } finally {
      i18n.store.off('added', onAdded);
    }
  });

  it('asks for texts the page already has only when `later` says so; a language it lacks at once (issue 13 item 4)', async () => {
    const reply = () =>
      new Response(
        JSON.stringify({ success: true, data: { language: 'x', clientMessages: { shell: {} } } }),
        {
          status: 200,
          headers: { 'content-type': 'application/json' },
        },
      );
    fetchMock.mockImplementation(async () => reply());
    let start: (() => void) | undefined;
    const later = (request: () => void) => {
      start = request;
    };

    // en-GB is built in: the request waits for `later`.
    const english = loadTranslations('en-GB', later);
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(fetchMock).not.toHaveBeenCalled();
    start!();
    expect(await english).toBe(true);
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/hms_ms/api/v1/translations/en-GB');

    // A cached language: its copy is used at once, the request waits.
    localStorage.setItem('messages', JSON.stringify({ nl: { shell: { copied: 'Gekopieerd' } } }));
    start = undefined;
    const dutch = loadTranslations('nl', later);
    await new Promise((r) => setTimeout(r, 0));
    expect(i18n.getResource('nl', 'translation', 'shell.copied')).toBe('Gekopieerd');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    start!();
    expect(await dutch).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(2);

    // A language the page has no texts for is asked for at once; `later` is not used.
    const later2 = vi.fn();
    expect(await loadTranslations('de', later2)).toBe(true);
    expect(later2).not.toHaveBeenCalled();
    expect(String(fetchMock.mock.calls[2]![0])).toBe('/hms_ms/api/v1/translations/de');
  });

  it('takes the texts the page brings before anything is drawn, over a cached copy; asks the server only later', async () => {
    localStorage.setItem('messages', JSON.stringify({ it: { shell: { copied: 'Vecchio' } } }));
    fetchMock.mockImplementation(
      async () =>
        new Response(
          JSON.stringify({
            success: true,
            data: { language: 'it', clientMessages: { shell: { copied: 'Copiato' } } },
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        ),
    );
    let start: (() => void) | undefined;
    const italian = loadTranslations(
      'it',
      (request) => {
        start = request;
      },
      undefined,
      { shell: { copied: 'Copiato' }, screens: { not: 'taken' } },
    );
    // At once, in the same task: the page's first draw (or hydration) reads them.
    expect(i18n.getResource('it', 'translation', 'shell.copied')).toBe('Copiato');
    expect(i18n.getResource('it', 'translation', 'screens.not')).toBeUndefined();
    await new Promise((r) => setTimeout(r, 0));
    expect(fetchMock).not.toHaveBeenCalled();
    start!();
    expect(await italian).toBe(true);
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/hms_ms/api/v1/translations/it');
  });

  it('uses the cached texts at once', async () => {
    localStorage.setItem('messages', JSON.stringify({ nl: { shell: { copied: 'Gekopieerd' } } }));
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await setLanguage('nl');
    expect(i18n.t('shell.copied')).toBe('Gekopieerd');
    expect(document.documentElement.dir).toBe('ltr');
  });
});

describe('RTL rendering', () => {
  it('AppProviders follow the language: dir="rtl" on the document for Arabic', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const { AppProviders } = await import('../shell/app');
    render(
      <AppProviders>
        <p>content</p>
      </AppProviders>,
    );
    expect(view.getByText('content')).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('ltr');
    await setLanguage('ar');
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
  });
});
