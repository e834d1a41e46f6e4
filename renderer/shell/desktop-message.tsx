import { useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { globalInfoAtom } from '../state/atoms';
import { useStoreValue } from '../state/use-store-value';

/** Side of the QR code drawn on the desktop page, in CSS px. */
export const QR_CODE_SIZE_PX = 200;

/**
 * The QR code of `text` as an SVG image named `label` (issue 12 item 19). The `qrcode` library is loaded
 * only here, when the desktop page is drawn (its own chunk; phones never download it). Draws nothing until
 * it is ready, or when it cannot load (the link below stays).
 */
function QrCode({ text, label }: { text: string; label: string }): ReactElement | null {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qrcode) => qrcode.default.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => {
        if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [text]);
  if (!src) return null;
  return (
    <Box
      component="img"
      src={src}
      alt={label}
      width={QR_CODE_SIZE_PX}
      height={QR_CODE_SIZE_PX}
      sx={{ display: 'block', marginInline: 'auto', marginBlock: 3, background: '#fff' }}
    />
  );
}

/**
 * The only thing a desktop user sees: please open the partner site on a mobile browser (SPEC §1), with a
 * QR code to scan with the phone and the link itself (issue 12 item 19). The target is the partner site when
 * global info names one (PARTNER_SITE_URL), else this very page.
 */
export function DesktopMessage(): ReactElement {
  const { t } = useTranslation();
  const target = useStoreValue(globalInfoAtom)?.partner_site_url ?? window.location.href;
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 4, textAlign: 'center' }}
    >
      <Box sx={{ maxWidth: 480 }}>
        <Typography component="h1" variant="h5" gutterBottom>
          {t('shell.desktop_gate.title')}
        </Typography>
        <Typography>{t('shell.desktop_gate.message')}</Typography>
        <QrCode text={target} label={t('shell.desktop_gate.qr_alt')} />
        <Typography variant="body2" color="text.secondary">
          {t('shell.desktop_gate.scan')}
        </Typography>
        <Typography variant="body2" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          <Link href={target} rel="noopener noreferrer">
            {target}
          </Link>
        </Typography>
      </Box>
    </Box>
  );
}
