import { Suspense, lazy, useState, type ReactElement } from 'react';
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

/** A lazy widget: its component, and `preload` to fetch its code before it is drawn. */
export type LazyWidgetComponent<C> = WidgetComponent<C> & {
  /** Starts fetching the widget's code; resolves once it is loaded or failed every try (never rejects). */
  preload(): Promise<void>;
};

/**
 * A widget whose code is fetched only when a screen draws it (CONVENTIONS: lazy-load heavy widgets such as
 * the uploader), so that its code stays out of the chunks every screen (the sign-in route) loads. `load`
 * resolves with the component (e.g. `() => import('../../widgets/image-uploader').then((m) => m.ImageUploader)`);
 * it is retried {@link WIDGET_LOAD_RETRIES} times, then the error reaches the widget's error boundary (its
 * quiet fallback). While loading, a skeleton stands in its place. The engine calls `preload` as soon as a
 * payload names the widget, so the code arrives with the widget's validator; a widget whose code is already
 * there when it is first drawn is drawn at once, without the skeleton.
 */
export function lazyWidget<C>(
  load: () => Promise<WidgetComponent<C>>,
  retries = WIDGET_LOAD_RETRIES,
  delayMs = 300,
): LazyWidgetComponent<C> {
  let loaded: WidgetComponent<C> | null = null;
  let loading: Promise<WidgetComponent<C>> | null = null;
  const start = (): Promise<WidgetComponent<C>> => {
    loading ??= withRetries(load, retries, delayMs).then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await start() }));
  function LazyWidget(props: WidgetProps<C>): ReactElement {
    // Decided once per mount: switching between the two would remount the widget and lose its state.
    const [Ready] = useState(() => loaded);
    if (Ready) return <Ready {...props} />;
    return (
      <Suspense fallback={<WidgetLoading />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyWidget.preload = () =>
    start().then(
      () => undefined,
      () => undefined,
    );
  return LazyWidget;
}

/** Starts fetching the code of `component` when it is a {@link lazyWidget}; resolves once loaded or failed. */
export function preloadWidget(component: WidgetComponent | undefined): Promise<void> {
  const preload = (component as Partial<LazyWidgetComponent<unknown>> | undefined)?.preload;
  return typeof preload === 'function' ? preload() : Promise.resolve();
}
