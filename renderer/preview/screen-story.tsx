import { useCallback, useMemo, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { ScreenPayload } from '../../schemas/generated/types';
import { ShellHostContext, useShellHost, type ShellHost } from '../engine/host';
import { Screen } from '../engine/screen';
import enGbShell from '../i18n/locales/en-GB/shell.json';
import arShell from '../i18n/locales/ar/shell.json';

/** The payloads of one screen's stories, by fixture context file name, then by language (`en-GB`, `ar`). */
export type ScreenStoryPayloads = Record<string, Partial<Record<string, ScreenPayload>>>;

/** Props of {@link ScreenStory}. */
export interface ScreenStoryProps {
  /** The screen id (`task_details`). */
  screen: string;
  /** The fixture context's file name (`owner-task-address.json`). */
  context: string;
  /** What the composer made of the screen at build time (.storybook/main.ts). */
  payloads?: ScreenStoryPayloads;
}

/** The shell's own texts (error card, unavailable widget, draft status) the widget stories lack. */
const shellMessages: Partial<Record<string, unknown>> = { 'en-GB': enGbShell, ar: arShell };

/**
 * One story of Storybook's "Screens" (issue 16 item 2): the real engine's Screen drawing the payload the real
 * composer made of `screen` for the fixture `context`, in the language of the toolbar (English or Arabic,
 * right to left). As in the staff preview, navigation stays on the story as a note (`→ /add`); actions that
 * call the API fail as they would offline, since Storybook runs without the BFF.
 */
export function ScreenStory({ screen, context, payloads }: ScreenStoryProps): ReactElement {
  const { i18n } = useTranslation();
  const language = i18n.language === 'ar' ? 'ar' : 'en-GB';
  useState(() => {
    // Added once, before the first draw, to the story's own i18n instance (.storybook/preview.tsx).
    for (const [lng, shell] of Object.entries(shellMessages)) {
      i18n.addResourceBundle(lng, 'translation', { shell }, true, false);
    }
    return true;
  });
  const parent = useShellHost();
  const [navigatedTo, setNavigatedTo] = useState<string | null>(null);
  const host = useMemo<ShellHost>(
    () => ({
      ...parent,
      navigate: (to, options) =>
        setNavigatedTo(
          options?.query ? `${to}?${new URLSearchParams(options.query as Record<string, string>)}` : to,
        ),
      goBack: (fallback) => setNavigatedTo(fallback),
    }),
    [parent],
  );
  const payload = payloads?.[context]?.[language];
  const source = useCallback(
    () =>
      payload
        ? Promise.resolve<unknown>(payload)
        : Promise.reject(new Error(`no payload for ${screen} × ${context} in ${language}`)),
    [payload, screen, context, language],
  );
  return (
    <Box data-screen-story={`${screen}/${context}`}>
      {navigatedTo && (
        <Alert severity="info" data-preview-navigation={navigatedTo} sx={{ borderRadius: 0 }}>
          → {navigatedTo}
        </Alert>
      )}
      <ShellHostContext.Provider value={host}>
        <Screen screenId={screen} source={source} />
      </ShellHostContext.Provider>
    </Box>
  );
}
