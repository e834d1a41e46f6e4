import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useStore } from 'jotai';
import { useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { extractErrorMessage } from '../api/client';
import { BASE_PATH } from './config';
import { signUpPath } from './country';
import { applySsoSession, exchangeSsoToken, takeSsoTokenFromLocation } from './sso';

/**
 * Exchanges the main app's token for a session (issue 11 item 4): shows 'Signing you in…', then goes to the
 * remembered target or the property middleware page; on refusal shows the server's translated reason and a
 * way to sign in normally (the phone code sign-up page).
 */
function SsoSignIn({ token }: { token: string }): ReactElement {
  const { t } = useTranslation();
  const store = useStore();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    document.title = t('shell.sso.title');
  }, [t]);

  useEffect(() => {
    let live = true;
    exchangeSsoToken(token).then(
      (result) => {
        if (!live) return;
        const target = applySsoSession(store, result);
        void navigate(target ?? BASE_PATH, { replace: true });
      },
      (err: unknown) => {
        if (live) setError(extractErrorMessage(err));
      },
    );
    return () => {
      live = false;
    };
  }, [token, store, navigate]);

  if (error === null) {
    return (
      <Box
        component="main"
        role="status"
        aria-busy="true"
        sx={{ p: 3, textAlign: 'center', maxWidth: 600, mx: 'auto', mt: 8 }}
      >
        <CircularProgress aria-hidden />
        <Typography sx={{ mt: 2 }}>{t('shell.sso.signing_in')}</Typography>
      </Box>
    );
  }
  return (
    <Box component="main" sx={{ p: 3, textAlign: 'center', maxWidth: 600, mx: 'auto', mt: 4 }}>
      <Typography component="h1" variant="h5">
        {t('shell.sso.error_title')}
      </Typography>
      <Typography role="alert" color="text.secondary" sx={{ mt: 1 }}>
        {error}
      </Typography>
      <Button
        variant="contained"
        fullWidth
        sx={{ mt: 4 }}
        onClick={() => void navigate(signUpPath(null), { replace: true })}
      >
        {t('shell.sso.sign_in_normally')}
      </Button>
    </Box>
  );
}

/**
 * /route/redirect/propertyOnboard (SPEC §2): with `#sso_token=<JWS>` in the fragment, the token is taken out
 * of the address bar at once and exchanged for a session; without one, the entry goes to /propertyOnboard,
 * keeping the query.
 */
export function RedirectEntry(): ReactElement {
  const location = useLocation();
  const [token] = useState(() => takeSsoTokenFromLocation());
  if (!token) return <Navigate to={`${BASE_PATH}${location.search}`} replace />;
  return <SsoSignIn token={token} />;
}
