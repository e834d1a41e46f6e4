import { useEffect, useRef } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { RedirectContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

/**
 * The `redirect` widget: navigates to `to` with its `query` (the engine appends and encodes it), replacing the
 * history entry, once on mount, and shows a small progress indicator labelled for screen readers meanwhile.
 */
export function Redirect({ contents, dispatch }: WidgetProps<RedirectContents>) {
  const { t } = useTranslation();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    void dispatch([
      contents.query
        ? { type: 'navigate', to: contents.to, replace: true, query: contents.query }
        : { type: 'navigate', to: contents.to, replace: true },
    ]);
  }, [contents, dispatch]);
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', paddingBlock: 4 }}>
      <CircularProgress size={32} aria-label={t('widgets.redirect.progress')} />
    </Box>
  );
}
