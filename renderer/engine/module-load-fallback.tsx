import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';

/**
 * A module (a screen's widget, a widget's validator, the chat, a shell page) whose chunk failed to load on
 * the first try and on each of the 5 retries (SPEC §4, §8, §9; widgets/retry-import.ts). Carries the last
 * error as `cause`.
 */
export class ModuleLoadError extends Error {
  constructor(cause: unknown) {
    super('module failed to load', { cause });
    this.name = 'ModuleLoadError';
  }
}

/**
 * Shown when a module failed to load after every retry (SPEC §4: 'an error fallback with a refresh action
 * that reloads the page'): 'This page could not be loaded…' and Refresh, which reloads the page.
 */
export function ModuleLoadFallback(): ReactElement {
  const { t } = useTranslation();
  return (
    <Card role="alert" variant="outlined" sx={{ m: 2 }}>
      <CardContent>
        <Typography>{t('shell.errors.page_load_failed')}</Typography>
      </CardContent>
      <CardActions>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t('shell.actions.refresh')}
        </Button>
      </CardActions>
    </Card>
  );
}
