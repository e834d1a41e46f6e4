import { Suspense, lazy, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Skeleton from '@mui/material/Skeleton';
import type { WidgetComponent, WidgetProps } from '../../widgets/widget-props';

/** Tries of a widget's chunk after the first (SPEC §4, §9: lazy-loaded modules retry up to 5 times). */
export const WIDGET_LOAD_RETRIES = 5;

/**
 * Calls `load` until it resolves: the first attempt and up to `retries` more, waiting `delayMs` × attempt
 * (ms) between them. Rejects with the last error.
 */
async function withRetries<T>(load: () => Promise<T>, retries: number, delayMs: number): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      if (attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * (attempt + 1)));
    }
  }
}

/** Placeholder of a widget whose code is on its way (aria-busy, named 'Loading…'). */
function WidgetLoading(): ReactElement {
  const { t } = useTranslation();
  return (
    <Skeleton
      variant="rounded"
      height={120}
      role="status"
      aria-busy="true"
      aria-label={t('shell.loading')}
      data-widget-loading=""
    />
  );
}

/**
 * A widget whose code is fetched only when a screen draws it (CONVENTIONS: lazy-load heavy widgets such as
 * the uploader), so that its code stays out of the chunks every screen (the sign-in route) loads. `load`
 * resolves with the component (e.g. `() => import('../../widgets/image-uploader').then((m) => m.ImageUploader)`);
 * it is retried {@link WIDGET_LOAD_RETRIES} times, then the error reaches the widget's error boundary (its
 * quiet fallback). While loading, a skeleton stands in its place.
 */
export function lazyWidget<C>(
  load: () => Promise<WidgetComponent<C>>,
  retries = WIDGET_LOAD_RETRIES,
  delayMs = 300,
): WidgetComponent<C> {
  const Lazy = lazy(async () => ({ default: await withRetries(load, retries, delayMs) }));
  function LazyWidget(props: WidgetProps<C>): ReactElement {
    return (
      <Suspense fallback={<WidgetLoading />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return LazyWidget;
}
