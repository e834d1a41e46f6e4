import { Suspense, type ReactElement, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

/**
 * `children`, a field whose code may still be on its way (a lazy component), with a busy placeholder of
 * `heightPx` (px) in its place until it arrives, so that nothing below it moves (CLS, issue 13 item 4).
 */
export function FieldLoading({
  heightPx,
  children,
}: {
  heightPx: number;
  children: ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        <Box role="status" aria-busy="true" aria-label={t('shell.loading')} sx={{ minHeight: heightPx }} />
      }
    >
      {children}
    </Suspense>
  );
}
