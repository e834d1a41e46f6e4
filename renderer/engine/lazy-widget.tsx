import { Suspense, lazy, useState, type ReactElement } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import { lazyModule, type PageTried } from '../../widgets/retry-import';
import { Skeleton } from '../../widgets/skeleton';
import type { ContentsCode, WidgetComponent, WidgetProps } from '../../widgets/widget-props';
import { ModuleLoadError, ModuleLoadFallback } from './module-load-fallback';

/** Placeholder of a widget whose code is on its way (aria-busy, named 'Loading…'). */
function WidgetLoading(): ReactElement {
  const { t } = useTranslation();
  return (
    <Skeleton
      height={120}
      role="status"
      aria-busy="true"
      aria-label={t('shell.loading')}
      data-widget-loading=""
    />
  );
}

/** The fallback of a widget whose code did not load; any other error goes on to the widget's own boundary. */
function moduleLoadFallbackOnly({ error }: FallbackProps): ReactElement {
  if (error instanceof ModuleLoadError) return <ModuleLoadFallback />;
  throw error;
}

/** A lazy widget: its component, and `preload` to fetch its code before it is drawn. */
export type LazyWidgetComponent<C> = WidgetComponent<C> & {
  /**
   * Starts fetching the widget's code; resolves once it is loaded or failed every try (never rejects).
   * `pageTried`: the page has fetched it itself (a `<link rel="modulepreload">`: widgets/retry-import.ts
   * `pagePreloads`), which counts as the first fetch (6 in all: `retryImport`).
   */
  preload(pageTried?: PageTried): Promise<void>;
  /**
   * Starts fetching the widget's code as `preload` does; resolves once it is loaded or its first try failed
   * (widgets/retry-import.ts `LazyModule.firstTry`: what a page waits for before its first draw).
   */
  firstTry(pageTried?: PageTried): Promise<void>;
  /** Whether the widget's code has arrived: then it is drawn at once, without the skeleton. */
  isLoaded(): boolean;
};

/**
 * A widget whose code is fetched only when a screen draws it (CONVENTIONS: lazy-load heavy widgets such as
 * the uploader), so that its code stays out of the chunks every screen (the sign-in route) loads. `load`
 * resolves with the component (e.g. `() => import('../../widgets/image-uploader').then((m) => m.ImageUploader)`);
 * it is retried 5 times (widgets/retry-import.ts), then the widget's place shows {@link ModuleLoadFallback}
 * with Refresh, which reloads the page (SPEC §4, §8). A crash of the loaded widget still reaches the
 * widget's own error boundary (its quiet fallback). While loading, a skeleton stands in its place. The engine calls `preload` as soon as a
 * payload names the widget, so the code arrives with the widget's validator; a widget whose code is already
 * there when it is first drawn is drawn at once, without the skeleton.
 */
export function lazyWidget<C>(
  load: () => Promise<WidgetComponent<C>>,
  delayMs = 300,
): LazyWidgetComponent<C> {
  const code = lazyModule(load, delayMs);
  // Kept: every try has failed, and drawing the widget must not try 6 times more (a screen preloads its
  // widgets, then draws them); the fallback's Refresh reloads the page, which starts afresh.
  const start = (pageTried: PageTried = false): Promise<WidgetComponent<C>> =>
    code.load(pageTried).catch((error: unknown) => {
      throw new ModuleLoadError(error);
    });
  const Lazy = lazy(async () => ({ default: await start() }));
  function LazyWidget(props: WidgetProps<C>): ReactElement {
    // Decided once per mount: switching between the two would remount the widget and lose its state.
    const [Ready] = useState(() => code.loaded());
    if (Ready) return <Ready {...props} />;
    return (
      <ErrorBoundary fallbackRender={moduleLoadFallbackOnly}>
        <Suspense fallback={<WidgetLoading />}>
          <Lazy {...props} />
        </Suspense>
      </ErrorBoundary>
    );
  }
  LazyWidget.preload = (pageTried?: PageTried) =>
    start(pageTried).then(
      () => undefined,
      () => undefined,
    );
  LazyWidget.firstTry = (pageTried?: PageTried) => code.firstTry(pageTried);
  LazyWidget.isLoaded = () => code.loaded() !== null;
  return LazyWidget;
}

/** The {@link ContentsCode} part of `component`, when it has one. */
function contentsCode(component: WidgetComponent | undefined): ContentsCode<unknown> | undefined {
  const part = component as Partial<ContentsCode<unknown>> | undefined;
  return typeof part?.prepare === 'function' && typeof part.prepared === 'function'
    ? (part as ContentsCode<unknown>)
    : undefined;
}

/**
 * The code of `component` as its `start` (`preload`: every try; `firstTry`) fetches it when it is a
 * {@link lazyWidget}, and the code its `contents` need when it has some ({@link ContentsCode}). Never rejects.
 */
function widgetCode(
  component: WidgetComponent | undefined,
  start: 'preload' | 'firstTry',
  pageTried: PageTried,
  contents: unknown,
): Promise<void> {
  const load = (component as Partial<LazyWidgetComponent<unknown>> | undefined)?.[start];
  const code = typeof load === 'function' ? load(pageTried) : Promise.resolve();
  const part = contentsCode(component);
  return part && contents !== undefined
    ? Promise.all([code, part.prepare(contents)]).then(() => undefined)
    : code;
}

/**
 * Starts fetching the code of `component` when it is a {@link lazyWidget}, and the code its `contents` need
 * when it has some ({@link ContentsCode}); resolves once loaded or failed, never rejects. `pageTried`: the page
 * has fetched the widget's chunk itself (widgets/retry-import.ts `pagePreloads`).
 */
export function preloadWidget(
  component: WidgetComponent | undefined,
  pageTried: PageTried = false,
  contents?: unknown,
): Promise<void> {
  return widgetCode(component, 'preload', pageTried, contents);
}

/**
 * Whether `component` can be drawn at once with `contents`: a widget that comes with the page or a
 * {@link lazyWidget} whose code has arrived, with the code its contents need ({@link ContentsCode}).
 */
export function widgetCodeLoaded(component: WidgetComponent | undefined, contents?: unknown): boolean {
  const isLoaded = (component as Partial<LazyWidgetComponent<unknown>> | undefined)?.isLoaded;
  if (typeof isLoaded === 'function' && !isLoaded()) return false;
  const part = contentsCode(component);
  return !part || contents === undefined || part.prepared(contents);
}

/**
 * Starts fetching what {@link preloadWidget} fetches; resolves once it is there or a first try failed
 * ({@link LazyWidgetComponent.firstTry}; at once for a widget that comes with the page and needs nothing for
 * its contents). Never rejects.
 */
export function widgetFirstTry(
  component: WidgetComponent | undefined,
  pageTried: PageTried = false,
  contents?: unknown,
): Promise<void> {
  return widgetCode(component, 'firstTry', pageTried, contents);
}
