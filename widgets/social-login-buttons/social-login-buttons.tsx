import { useEffect, useRef, useState } from 'react';
import { Box, Button, Divider, Stack, Typography } from '@mui/material';
import ErrorIcon from '@mui/icons-material/Error';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import type { SocialLoginButtonsContents } from '../../schemas/generated/types';
import type { RequestFailure, WidgetProps } from '../widget-props';

/** SPEC §9: after opening the Truecaller deep link, the page must lose focus within this window (ms) … */
export const TRUECALLER_DEEP_LINK_WINDOW_MS = 1000;
/** … then whether Truecaller's sheet has closed is checked this often (ms; SPEC §9 SDK close check) … */
export const TRUECALLER_SDK_CLOSE_CHECK_MS = 500;
/** … and the server is asked at most this many times (SPEC §4, §9 polling count) … */
export const TRUECALLER_POLL_COUNT = 3;
/** … this many ms apart (SPEC §4, §9 interval). */
export const TRUECALLER_POLL_INTERVAL_MS = 1000;

type Provider = SocialLoginButtonsContents['providers'][number]['provider'];

/** Leaves the app for another page (the provider's, or Truecaller's deep link); tests replace `assign`. */
export const browserNavigation = {
  assign: (url: string): void => window.location.assign(url),
};

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

const failureOf = (error: unknown): RequestFailure | null =>
  error && typeof error === 'object' && 'message' in error ? (error as RequestFailure) : null;

/**
 * The `social_login_buttons` widget (issue 11 items 2–3): draws one button for each of `contents.providers`
 * that the server has configured, or nothing. Which are configured comes with the screen (`contents.configured`,
 * composed by the server), so the buttons are in the screen's first paint; without it, and always for intent
 * `link` (Account: the providers the owner has not linked yet), the widget asks (getSocialProviders).
 * Google, Facebook and Apple: startSocialLogin, then the browser goes to the provider's page (the return
 * is the shell's /propertyOnboard/social_login/:oauth_mode page). Truecaller: startTruecallerLogin, open the
 * deep link; if the page still has focus after {@link TRUECALLER_DEEP_LINK_WINDOW_MS} the app is not there;
 * else once the page is focused again (checked every {@link TRUECALLER_SDK_CLOSE_CHECK_MS}) it polls
 * social_media_login up to {@link TRUECALLER_POLL_COUNT} times every {@link TRUECALLER_POLL_INTERVAL_MS}
 * ('No callback received' = ONB_TRUECALLER_PENDING: keep polling), then starts the session; otherwise, and
 * for 'use another number', it shows `truecaller_fallback` (the phone code above is the way in).
 */
export function SocialLoginButtons({
  contents,
  load,
  send,
  dispatch,
}: WidgetProps<SocialLoginButtonsContents>) {
  const intent = contents.intent ?? 'sign_in';
  const composed = intent === 'link' ? undefined : contents.configured;
  const [asked, setAsked] = useState<Provider[] | null>(null);
  const configured = composed ?? asked;
  const [busy, setBusy] = useState<Provider | null>(null);
  const [message, setMessage] = useState<{ text: string; severity: 'error' | 'info' } | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (composed) return;
    const controller = new AbortController();
    load('/hms_ms/api/v1/users/social_login/providers', {}, controller.signal)
      .then((data) => {
        const d = data as { providers?: Provider[]; linked?: Provider[] };
        const linked = new Set(d.linked ?? []);
        setAsked(
          (d.providers ?? []).filter((p) => intent !== 'link' || (p !== 'truecaller' && !linked.has(p))),
        );
      })
      .catch(() => {
        if (!controller.signal.aborted) setAsked([]);
      });
    return () => controller.abort();
  }, [load, intent, composed]);

  const shown = contents.providers.filter((p) => configured?.includes(p.provider));
  if (shown.length === 0) return null;

  const fallback = () => {
    if (mounted.current)
      setMessage(
        contents.truecaller_fallback ? { text: contents.truecaller_fallback, severity: 'info' } : null,
      );
  };

  const truecaller = async () => {
    const { request_nonce, deep_link } = (await send('/hms_ms/api/v1/users/truecaller/request', {})) as {
      request_nonce: string;
      deep_link: string;
    };
    browserNavigation.assign(deep_link);
    await wait(TRUECALLER_DEEP_LINK_WINDOW_MS);
    // Truecaller's sheet takes the focus; a page that kept it means the app did not open.
    if (document.hasFocus()) return fallback();
    if (contents.truecaller_waiting) setMessage({ text: contents.truecaller_waiting, severity: 'info' });
    while (!document.hasFocus()) {
      if (!mounted.current) return;
      await wait(TRUECALLER_SDK_CLOSE_CHECK_MS);
    }
    for (let attempt = 0; attempt < TRUECALLER_POLL_COUNT; attempt += 1) {
      if (!mounted.current) return;
      try {
        const data = (await send('/hms_ms/api/v1/users/social_media_login', {
          oauth_mode: 'truecaller',
          request_nonce,
        })) as { outcome: string; user?: unknown };
        if (data.outcome === 'used_another_number') return fallback();
        await dispatch([{ type: 'session_started' }], { response: { success: true, data } });
        return;
      } catch (error) {
        if (failureOf(error)?.code !== 'ONB_TRUECALLER_PENDING') throw error;
      }
      await wait(TRUECALLER_POLL_INTERVAL_MS);
    }
    fallback();
  };

  const start = async (provider: Provider) => {
    setBusy(provider);
    setMessage(null);
    try {
      if (provider === 'truecaller') {
        await truecaller();
        if (mounted.current) setBusy(null);
        return;
      }
      const { authorization_url } = (await send('/hms_ms/api/v1/users/social_login/authorize', {
        oauth_mode: provider,
        intent,
      })) as { authorization_url: string };
      browserNavigation.assign(authorization_url);
    } catch (error) {
      if (!mounted.current) return;
      setBusy(null);
      setMessage({ text: failureOf(error)?.message ?? String(error), severity: 'error' });
    }
  };

  return (
    <Box component="section" aria-label={contents.divider} sx={{ marginBlock: 2 }}>
      {contents.divider && (
        <Divider sx={{ marginBlockEnd: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {contents.divider}
          </Typography>
        </Divider>
      )}
      <Stack spacing={1.5}>
        {shown.map((p) => (
          <Button
            key={p.provider}
            variant="outlined"
            size="large"
            fullWidth
            loading={busy === p.provider}
            disabled={busy !== null && busy !== p.provider}
            aria-busy={busy === p.provider}
            onClick={() => void start(p.provider)}
            sx={{ minHeight: 48, overflowWrap: 'anywhere' }}
            data-provider={p.provider}
          >
            {p.label}
          </Button>
        ))}
        {message && <Message {...message} />}
      </Stack>
    </Box>
  );
}

/**
 * Colours of {@link Message}: those of MUI's standard Alert for the two severities (text 4.5:1 and more on its
 * background).
 */
const MESSAGE_STYLE = {
  error: { Icon: ErrorIcon, color: '#5F2120', bgcolor: '#FDEDED', iconColor: '#D32F2F' },
  info: { Icon: InfoOutlined, color: '#014361', bgcolor: '#E5F6FD', iconColor: '#0288D1' },
} as const;

/**
 * A sign-in failure (role="alert") or a note on the way (role="status") under the buttons, drawn as MUI's
 * standard Alert looks, without its code in the first page (issue 13 item 2: only a tap can show one).
 */
function Message({ text, severity }: { text: string; severity: 'error' | 'info' }) {
  const { Icon, color, bgcolor, iconColor } = MESSAGE_STYLE[severity];
  return (
    <Box
      role={severity === 'error' ? 'alert' : 'status'}
      data-severity={severity}
      sx={{ display: 'flex', gap: 1.5, px: 2, py: 0.75, borderRadius: 1, color, bgcolor }}
    >
      <Icon aria-hidden sx={{ color: iconColor, fontSize: 22, my: 0.875 }} />
      <Typography variant="body2" sx={{ py: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        {text}
      </Typography>
    </Box>
  );
}
