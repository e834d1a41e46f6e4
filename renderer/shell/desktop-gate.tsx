import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useAtomValue } from 'jotai';
import { globalInfoAtom } from '../state/atoms';
import { DESKTOP_BREAKPOINT_PX } from './config';

/** What desktop detection reads: the window width in px and the browser's navigator. */
export interface DesktopProbe {
  width: number;
  userAgent: string;
  /** navigator.userAgentData?.mobile (Chromium); undefined elsewhere. */
  uaMobile?: boolean;
}

/**
 * Desktop (SPEC §1, §9): wider than 1280 px, or a desktop browser — navigator.userAgentData.mobile === false
 * where the browser tells, else a user agent without Mobi, Android, iPhone or iPad.
 */
export function isDesktopEnvironment(probe: DesktopProbe): boolean {
  if (probe.width > DESKTOP_BREAKPOINT_PX) return true;
  if (probe.uaMobile === false) return true;
  if (probe.uaMobile === true) return false;
  return !/Mobi|Android|iPhone|iPad/.test(probe.userAgent);
}

/** Reads the current window and navigator. */
export function probeWindow(): DesktopProbe {
  const nav = navigator as Navigator & { userAgentData?: { mobile?: boolean } };
  return { width: window.innerWidth, userAgent: nav.userAgent, uaMobile: nav.userAgentData?.mobile };
}

/** True while the app runs on a desktop; re-evaluated on every window resize. */
export function useIsDesktop(probe: () => DesktopProbe = probeWindow): boolean {
  const [desktop, setDesktop] = useState(() => isDesktopEnvironment(probe()));
  useEffect(() => {
    const update = () => setDesktop(isDesktopEnvironment(probe()));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [probe]);
  return desktop;
}

/**
 * The only thing a desktop user sees: please open the partner site on a mobile browser (SPEC §1). The link
 * is the partner site when global info names one (PARTNER_SITE_URL), else this very page.
 */
export function DesktopMessage(): ReactElement {
  const { t } = useTranslation();
  const target = useAtomValue(globalInfoAtom)?.partner_site_url ?? window.location.href;
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
        <Typography sx={{ mt: 2 }}>
          <Link href={target} rel="noopener noreferrer">
            {target}
          </Link>
        </Typography>
      </Box>
    </Box>
  );
}

/** Renders `children` on mobile; on desktop only {@link DesktopMessage} (nothing else renders). */
export function DesktopGate({
  children,
  probe = probeWindow,
}: {
  children: ReactNode;
  probe?: () => DesktopProbe;
}): ReactElement {
  const desktop = useIsDesktop(probe);
  return desktop ? <DesktopMessage /> : <>{children}</>;
}
