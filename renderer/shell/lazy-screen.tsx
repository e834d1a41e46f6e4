import { lazy, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Screen, type ScreenProps } from '../engine/screen';
import { LAZY_LOAD_RETRIES } from './config';

/**
 * Calls `factory` until it resolves: the first attempt plus up to `retries` more (SPEC §4, §9: 5), waiting
 * `delayMs` × attempt between tries. Rejects with the last error.
 */
export async function retryImport<T>(
  factory: () => Promise<T>,
  retries = LAZY_LOAD_RETRIES,
  delayMs = 300,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await factory();
    } catch (error) {
      if (attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * (attempt + 1)));
    }
  }
}

/** React.lazy with {@link retryImport}. */
export function lazyWithRetry<P extends object>(
  factory: () => Promise<{ default: ComponentType<P> }>,
  retries = LAZY_LOAD_RETRIES,
  delayMs = 300,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => retryImport(factory, retries, delayMs));
}

/** Shown when a module failed to load after every retry: a Refresh that reloads the page (SPEC §4). */
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

/**
 * The engine's Screen behind an error boundary with the Refresh fallback. The engine comes with the page
 * (its chunk is preloaded by the page's `<link rel=modulepreload>`) rather than being fetched once the shell
 * has drawn: every route draws a screen, and waiting for it cost a round trip before the screen request
 * could even start (issue 13). What varies per screen — its widgets and their validators — loads lazily.
 */
export function LazyScreen({ screenId, requestHeaders, requestQuery }: ScreenProps): ReactElement {
  return (
    <ErrorBoundary fallback={<ModuleLoadFallback />}>
      <Screen screenId={screenId} requestHeaders={requestHeaders} requestQuery={requestQuery} />
    </ErrorBoundary>
  );
}
