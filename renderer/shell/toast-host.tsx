import { keyframes } from '@emotion/react';
import { useStore } from 'jotai';
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import WarningAmber from '@mui/icons-material/WarningAmber';
import type { ToastStatus } from '../../schemas/generated/types';
import { toastsAtom } from '../state/atoms';
import { useStoreValue } from '../state/use-store-value';
import { TOAST_FADE_MS } from './config';

const STYLE: Record<ToastStatus, { Icon: typeof CheckCircle; background: string }> = {
  error: { Icon: ErrorIcon, background: '#B3261E' },
  warning: { Icon: WarningAmber, background: '#7A4A00' },
  success: { Icon: CheckCircle, background: '#1E6B35' },
  generic: { Icon: InfoOutlined, background: '#2B2B2B' },
};

/** The toast's entrance: opacity 0 → 1 over TOAST_FADE_MS. */
const fadeIn = keyframes({ from: { opacity: 0 }, to: { opacity: 1 } });

/** True on a mobile browser (UA says Mobi, Android, iPhone or iPad). */
function isMobileBrowser(): boolean {
  return typeof navigator !== 'undefined' && /Mobi|Android|iPhone|iPad/.test(navigator.userAgent);
}

/**
 * Draws the first toast of the queue (SPEC §3 popup item, §8, §9): icon and colour per status, text clipped
 * to 2 lines, 600 px wide on wide screens and screen width minus 32 px on mobile, fade-in 130 ms, 150 px from
 * the bottom on a mobile browser (25 px otherwise); role="alert" for errors, role="status" for the rest.
 * Each toast leaves after its `timer` in ms and the next one shows.
 */
export function ToastHost(): ReactElement | null {
  const { t } = useTranslation();
  const store = useStore();
  const queue = useStoreValue(toastsAtom);
  const current = queue[0];

  useEffect(() => {
    if (!current) return;
    const timer = window.setTimeout(() => {
      store.set(toastsAtom, (all) => all.filter((toast) => toast.id !== current.id));
    }, current.timer);
    return () => window.clearTimeout(timer);
  }, [current, store]);

  if (!current) return null;
  const { Icon, background } = STYLE[current.status];
  return (
    <Box
      key={current.id}
      role={current.status === 'error' ? 'alert' : 'status'}
      aria-live={current.status === 'error' ? 'assertive' : 'polite'}
      data-status={current.status}
      sx={{
        position: 'fixed',
        insetInlineStart: '50%',
        transform: 'translateX(-50%)',
        bottom: isMobileBrowser() ? 150 : 25,
        width: { xs: 'calc(100vw - 32px)', sm: 600 },
        maxWidth: 'calc(100vw - 32px)',
        zIndex: (theme) => theme.zIndex.snackbar,
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        px: 2,
        py: 1.5,
        borderRadius: 2,
        color: '#FFFFFF',
        bgcolor: background,
        boxShadow: 3,
        // Fades in like MUI's Fade, without its transition code in the first page (issue 13).
        animation: `${fadeIn} ${TOAST_FADE_MS}ms ease-in`,
      }}
    >
      <Icon titleAccess={t(`shell.toast.${current.status}`)} fontSize="small" />
      <Typography
        variant="body2"
        sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
      >
        {current.toast_text}
      </Typography>
    </Box>
  );
}
