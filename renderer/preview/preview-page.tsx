import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Locale, PreviewCatalogue, PreviewCheck } from '../../schemas/generated/types';
import { ShellHostContext, useShellHost, type ShellHost } from '../engine/host';
import { Screen } from '../engine/screen';
import { applyDocumentLanguage, directionReady, loadRtlCache } from '../i18n/direction';
import { currentLocale, i18n } from '../i18n/instance';
import { isLocale } from '../i18n/languages';
import { PREVIEW_AREAS, loadTranslations } from '../i18n/translations';

/** The staff preview API (bff/routes/preview). */
const PREVIEW_API = '/hms_ms/api/v1/preview';
/** The page of one frame: one screen, one context, one language. */
export const PREVIEW_FRAME_PATH = '/__preview/screens/frame';
/** Where the staff token typed on the page is kept for this tab (the frames read it too). */
const TOKEN_KEY = 'preview_staff_token';
/** A phone's viewport, in CSS pixels (SPEC §1 mobile first). */
const PHONE = { width: 360, height: 740 };

const readToken = (): string => {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
};
const authHeaders = (token: string): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

/** The URL of the frame drawing `screen` for `context` in `locale`. */
export const frameUrl = (screen: string, context: string, locale: Locale): string =>
  `${PREVIEW_FRAME_PATH}?${new URLSearchParams({ screen, context, locale }).toString()}`;

/**
 * The staff preview (issue 16 item 2), at /__preview/screens: pick a screen, a fixture context and
 * languages; each language is drawn side by side in a phone-sized frame by the real renderer from what the
 * real composer makes of the definition files now (English and Arabic first). A definition that does not
 * compose shows its file and JSON path in the frame. The choice is kept in the address
 * (`?screen=…&context=…&locales=en-GB,ar`), so a link shows the same state. In production the staff token
 * (SUPPORT_STAFF_TOKEN) is asked for and kept for the tab.
 */
export function PreviewPage(): ReactElement {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const [token, setToken] = useState(readToken);
  const [catalogue, setCatalogue] = useState<PreviewCatalogue | 'refused' | null>(null);

  useEffect(() => {
    // The page's own texts are in the `screens` area, which the app does not load (i18n/translations.ts).
    void loadTranslations(currentLocale(), undefined, PREVIEW_AREAS);
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    fetch(PREVIEW_API, { headers: authHeaders(token), signal: controller.signal }).then(
      async (res) => {
        if (!res.ok) return setCatalogue('refused');
        const body = (await res.json()) as { data: PreviewCatalogue };
        setCatalogue(body.data);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [token]);

  const screens = catalogue && catalogue !== 'refused' ? catalogue.screens : [];
  const screen = search.get('screen') ?? screens[0]?.screen_id ?? '';
  const isPublic = screens.find((s) => s.screen_id === screen)?.public ?? false;
  const contexts = useMemo(
    () =>
      catalogue && catalogue !== 'refused'
        ? catalogue.contexts.filter((c) => c.signed_in || isPublic).map((c) => c.name)
        : [],
    [catalogue, isPublic],
  );
  const wantedContext = search.get('context');
  const context = wantedContext && contexts.includes(wantedContext) ? wantedContext : (contexts[0] ?? '');
  const locales = (search.get('locales') ?? 'en-GB,ar').split(',').filter(isLocale);
  const choose = (key: string, value: string) => {
    const next = new URLSearchParams(search);
    next.set(key, value);
    setSearch(next, { replace: true });
  };
  const toggleLocale = (locale: Locale, on: boolean) =>
    choose(
      'locales',
      (catalogue && catalogue !== 'refused' ? catalogue.locales : [])
        .filter((l) => (l === locale ? on : locales.includes(l)))
        .join(','),
    );

  return (
    <Box component="main" sx={{ p: 2 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('screens.preview.title')}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', mb: 2 }} useFlexGap>
        <TextField
          select
          size="small"
          label={t('screens.preview.screen')}
          value={screens.some((s) => s.screen_id === screen) ? screen : ''}
          onChange={(e) => choose('screen', e.target.value)}
          sx={{ minWidth: 220 }}
          slotProps={{ htmlInput: { 'data-testid': 'preview-screen' } }}
        >
          {screens.map((s) => (
            <MenuItem key={s.screen_id} value={s.screen_id}>
              {s.screen_id}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('screens.preview.context')}
          value={context}
          onChange={(e) => choose('context', e.target.value)}
          sx={{ minWidth: 300 }}
        >
          {contexts.map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="password"
          label={t('screens.preview.token')}
          value={token}
          onChange={(e) => {
            setToken(e.target.value);
            try {
              sessionStorage.setItem(TOKEN_KEY, e.target.value);
            } catch {
              // Storage refused: the token holds until the page is left.
            }
          }}
        />
      </Stack>
      {catalogue === 'refused' && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('screens.preview.token_refused')}
        </Alert>
      )}
      {catalogue && catalogue !== 'refused' && (
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2 }}>
          <Typography component="legend" variant="subtitle2">
            {t('screens.preview.languages')}
          </Typography>
          {catalogue.locales.map((l) => (
            <FormControlLabel
              key={l}
              label={l}
              control={
                <Checkbox
                  size="small"
                  checked={locales.includes(l)}
                  onChange={(e) => toggleLocale(l, e.target.checked)}
                />
              }
            />
          ))}
        </Box>
      )}
      {screen && context && (
        <Stack direction="row" spacing={2} sx={{ overflowX: 'auto', pb: 2 }}>
          {locales.map((locale) => (
            <Box key={locale} sx={{ flex: 'none' }}>
              <Typography variant="caption" component="p">
                {locale}
              </Typography>
              <Box
                component="iframe"
                title={`${screen} · ${context} · ${locale}`}
                src={frameUrl(screen, context, locale)}
                data-preview-frame={locale}
                sx={{
                  width: PHONE.width,
                  height: PHONE.height,
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 2,
                }}
              />
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}

/**
 * One frame of the preview, at /__preview/screens/frame?screen=…&context=…&locale=…: asks whether the screen
 * composes for the context, then draws it with the engine's Screen from the preview API, in `locale` (text
 * direction included). Navigation, sign-in and sign-out stay inside the frame as a note (`data-preview-
 * navigation`), so the frame keeps showing the screen. `data-preview-state` tells a test where it stands:
 * `loading`, `error` (the composer's file, JSON path and reason are shown) or `screen`, and
 * `data-preview-context` for which context. A change of the address without a reload (history) draws the new
 * screen, context or language from the start.
 */
export function PreviewFrame(): ReactElement {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const screen = search.get('screen') ?? '';
  const context = search.get('context') ?? '';
  const wanted = search.get('locale');
  const locale: Locale = isLocale(wanted) ? wanted : 'en-GB';
  const parent = useShellHost();
  const [languageReady, setLanguageReady] = useState(false);
  const [check, setCheck] = useState<PreviewCheck | null>(null);
  const [navigatedTo, setNavigatedTo] = useState<string | null>(null);
  const token = readToken();

  useEffect(() => {
    // Not the app's setLanguage: the staff's own choice of language (localStorage) stays as it is. A
    // right-to-left frame waits for its styles (loaded only for such languages), then sets `<html dir>`.
    const styles = directionReady(locale) ? Promise.resolve() : loadRtlCache().catch(() => undefined);
    void styles
      .then(() => {
        applyDocumentLanguage(locale);
        return i18n.changeLanguage(locale);
      })
      .then(() => loadTranslations(locale, undefined, PREVIEW_AREAS))
      .then(() => setLanguageReady(true));
  }, [locale]);

  useEffect(() => {
    // Another screen, context or language (the address changed without a reload): nothing of the last one
    // stays shown while the new one is checked.
    setCheck(null);
    const controller = new AbortController();
    const query = new URLSearchParams({ context }).toString();
    fetch(`${PREVIEW_API}/check/${encodeURIComponent(screen)}?${query}`, {
      headers: { ...authHeaders(token), httpxoyolang: locale, accept: 'application/json' },
      signal: controller.signal,
    }).then(
      async (res) => {
        const body = (await res.json()) as { data?: PreviewCheck; error?: { message?: string } };
        setCheck(
          body.data ?? { ok: false, file: `${screen}.json`, path: '', detail: body.error?.message ?? '' },
        );
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [screen, context, locale, token]);

  const host = useMemo<ShellHost>(
    () => ({
      ...parent,
      navigate: (to, options) =>
        setNavigatedTo(
          options?.query ? `${to}?${new URLSearchParams(options.query as Record<string, string>)}` : to,
        ),
      goBack: (fallback) => setNavigatedTo(fallback),
      signOut: async () => true,
      sessionStarted: () => undefined,
      setLanguage: async () => undefined,
      setFooterHidden: () => undefined,
    }),
    [parent],
  );

  if (!check || !languageReady) return <div data-preview-state="loading" role="status" aria-busy="true" />;
  if (!check.ok) {
    return (
      <Box data-preview-state="error" data-preview-context={context} sx={{ p: 2 }}>
        <Alert severity="error" data-preview-error="">
          <Typography variant="subtitle2">{t('screens.preview.not_composed')}</Typography>
          <Typography variant="body2" component="code" sx={{ display: 'block', wordBreak: 'break-word' }}>
            {check.file}
            {check.path ? ` ${check.path}` : ''}
          </Typography>
          <Typography variant="body2">{check.detail}</Typography>
        </Alert>
      </Box>
    );
  }
  return (
    <Box data-preview-state="screen" data-preview-context={context}>
      {navigatedTo && (
        <Alert severity="info" data-preview-navigation={navigatedTo} sx={{ borderRadius: 0 }}>
          → {navigatedTo}
        </Alert>
      )}
      <ShellHostContext.Provider value={host}>
        <Screen
          // A new context is a new screen: nothing typed or drawn for the last one carries over.
          key={`${screen}\n${context}\n${locale}`}
          screenId={screen}
          endpoint={`${PREVIEW_API}/screens/`}
          requestQuery={{ context }}
          requestHeaders={token ? authHeaders(token) : undefined}
        />
      </ShellHostContext.Provider>
    </Box>
  );
}
