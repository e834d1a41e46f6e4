import type { ReactElement } from 'react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { activeHotelIdAtom, globalInfoAtom } from '../state/atoms';
import { useStoreValue } from '../state/use-store-value';
import { BASE_PATH } from './config';

/**
 * The support center's home on the partner site (SPEC §2 navigation table): `support-center/hotels/{id}/home`
 * for the active hotel, else the hotel-free `support-center/faqs`; relative to `partnerSite` (PARTNER_SITE_URL),
 * or to this site's root when none is named (the onboarding pages are part of the partner site).
 */
export function supportCenterUrl(
  partnerSite: string | null | undefined,
  activeHotelId: string | null,
): string {
  const base = partnerSite ?? `${window.location.origin}/`;
  const path = activeHotelId
    ? `support-center/hotels/${encodeURIComponent(activeHotelId)}/home`
    : 'support-center/faqs';
  return new URL(path, base.endsWith('/') ? base : `${base}/`).href;
}

/**
 * The not-found page (SPEC §2, §8): large 404 graphic, translated title "We couldn't find the page" and
 * description, 'Go Back' (history back when the previous entry is a page of the app, else /propertyOnboard: never out of
 * the app, issue 12 item 14), the support center's home of the active hotel ({@link supportCenterUrl}) and
 * the way back to the provider's operating system, the partner site (SPEC §2; issue 12 item 21). Shown for unknown paths, unauthorized pages, the manager role and bad country codes.
 */
export function NotFoundPage(): ReactElement {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const partnerSite = useStoreValue(globalInfoAtom)?.partner_site_url;
  const activeHotelId = useStoreValue(activeHotelIdAtom);
  useEffect(() => {
    document.title = t('shell.not_found.title');
  }, [t]);
  const goBack = () => {
    // history.length counts other sites' pages of the tab too; react-router's entry index counts only ours.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(BASE_PATH, { replace: true });
  };
  return (
    <Box component="main" sx={{ p: 3, textAlign: 'center', maxWidth: 600, mx: 'auto' }}>
      <Box
        component="img"
        src={`${import.meta.env.BASE_URL}404.svg`}
        alt={t('shell.not_found.image_alt')}
        // The picture's own size (its viewBox): the browser keeps its place before it loads.
        width={320}
        height={200}
        sx={{ width: '100%', maxWidth: 320, height: 'auto', mx: 'auto', display: 'block' }}
      />
      <Typography component="h1" variant="h5" sx={{ mt: 3 }}>
        {t('shell.not_found.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {t('shell.not_found.description')}
      </Typography>
      <Stack spacing={1.5} sx={{ mt: 4 }}>
        <Button variant="contained" onClick={goBack}>
          {t('shell.not_found.go_back')}
        </Button>
        <Button variant="outlined" component="a" href={supportCenterUrl(partnerSite, activeHotelId)}>
          {t('shell.not_found.support_center')}
        </Button>
        {partnerSite && (
          <Button variant="outlined" component="a" href={partnerSite} rel="noopener noreferrer">
            {t('shell.not_found.partner_site')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
