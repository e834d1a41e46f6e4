import { useContext, useEffect, useRef, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useStore } from 'jotai';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import type { SocialMediaLoginResult } from '../../schemas/generated/types';
import { apiRequest, extractErrorMessage } from '../api/client';
import { ShellHostContext } from '../engine/host';
import { pushToast } from '../state/atoms';
import { ACTION_TOAST_MIN_MS } from './config';
import { isCountrySegment, toBrowserPath } from './country';

/** The providers whose return lands here (SPEC §2 oauth_mode; Truecaller answers by polling instead). */
const RETURNING_PROVIDERS: Record<string, string> = {
  google: 'Google',
  facebook: 'Facebook',
  apple: 'Apple',
};

/**
 * /propertyOnboard[/:country_iso_code]/social_login/:oauth_mode (SPEC §2, always authorized): the provider's
 * return. Takes the query (code, state…) out of the address bar and history at once, sends it to
 * social_media_login (which checks everything and starts the session), then goes where a sign-in goes
 * (the remembered target or the property middleware page, ShellHost.sessionStarted), or for a link from
 * Account back to Account with a toast. A refusal is shown with a way back to the sign-in page.
 */
export function SocialLoginReturn(): ReactElement {
  const { oauth_mode: mode = '', country_iso_code: country } = useParams();
  const countryCode = country && isCountrySegment(country) ? country : null;
  const host = useContext(ShellHostContext);
  const navigate = useNavigate();
  const store = useStore();
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const query = window.location.search;
    // The one-time code must not stay in the address bar, the history or a Referer.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    const label = RETURNING_PROVIDERS[mode];
    if (!label) {
      setError(t('shell.social_login.errors.provider_unknown'));
      return;
    }
    apiRequest<SocialMediaLoginResult>('/hms_ms/api/v1/users/social_media_login', {
      method: 'POST',
      body: { oauth_mode: mode, callback_query: query },
    })
      .then((data) => {
        if (!data.user) throw new Error(t('shell.social_login.errors.failed', { provider: label }));
        if (data.outcome === 'linked') {
          pushToast(store, {
            toast_text: t('shell.social_login.linked', { provider: label }),
            status: 'success',
            timer: ACTION_TOAST_MIN_MS,
          });
          void navigate(toBrowserPath('/account', countryCode), { replace: true });
          return;
        }
        host.sessionStarted(data.user);
      })
      .catch((e: unknown) => setError(extractErrorMessage(e)));
  }, [mode, countryCode, host, navigate, store, t]);

  if (error) {
    return (
      <Stack component="main" spacing={2} sx={{ padding: 3 }}>
        <Typography variant="h5" component="h1">
          {t('shell.social_login.failed_title')}
        </Typography>
        <Alert severity="error" role="alert">
          {error}
        </Alert>
        <Button
          variant="contained"
          size="large"
          onClick={() => void navigate(toBrowserPath('/login', countryCode), { replace: true })}
        >
          {t('shell.social_login.back_to_sign_in')}
        </Button>
      </Stack>
    );
  }
  return (
    <Box component="main" sx={{ display: 'flex', justifyContent: 'center', paddingBlock: 6 }}>
      <CircularProgress aria-label={t('shell.social_login.signing_in')} />
    </Box>
  );
}
