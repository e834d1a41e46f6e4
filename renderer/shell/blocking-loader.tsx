import { useAtomValue } from 'jotai';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';
import { blockingLoaderAtom } from '../state/atoms';

/** Full-screen overlay while blockingLoaderAtom is above 0 (SPEC §4 blocking loader): aria-busy, a progressbar. */
export function BlockingLoader(): ReactElement | null {
  const { t } = useTranslation();
  const active = useAtomValue(blockingLoaderAtom) > 0;
  if (!active) return null;
  return (
    <Backdrop open aria-busy="true" sx={{ zIndex: (theme) => theme.zIndex.modal + 1, color: '#FFFFFF' }}>
      <CircularProgress color="inherit" aria-label={t('shell.loading')} />
    </Backdrop>
  );
}
