import { keyframes } from '@emotion/react';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { blockingLoaderAtom } from '../state/atoms';
import { useStoreValue } from '../state/use-store-value';

/** One turn of the spinner (the ring of MUI's indeterminate CircularProgress, drawn without it). */
const spin = keyframes({ from: { transform: 'rotate(0deg)' }, to: { transform: 'rotate(360deg)' } });

/**
 * Full-screen overlay while blockingLoaderAtom is above 0 (SPEC §4 blocking loader): aria-busy, a
 * progressbar named 'Loading…'. Plain elements with the theme's z-index instead of MUI's Backdrop and
 * CircularProgress, which would bring their transitions into the first page's JavaScript (issue 13).
 */
export function BlockingLoader(): ReactElement | null {
  const { t } = useTranslation();
  const active = useStoreValue(blockingLoaderAtom) > 0;
  if (!active) return null;
  return (
    <Box
      aria-busy="true"
      sx={{
        position: 'fixed',
        inset: 0,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'rgba(0, 0, 0, 0.5)',
        color: '#FFFFFF',
        zIndex: (theme) => theme.zIndex.modal + 1,
        WebkitTapHighlightColor: 'transparent',
      }}
    >
      <Box
        component="span"
        role="progressbar"
        aria-label={t('shell.loading')}
        sx={{
          display: 'inline-block',
          width: 40,
          height: 40,
          borderRadius: '50%',
          border: '4px solid currentColor',
          borderInlineEndColor: 'transparent',
          animation: `${spin} 1s linear infinite`,
          '@media (prefers-reduced-motion: reduce)': { animationDuration: '3s' },
        }}
      />
    </Box>
  );
}
