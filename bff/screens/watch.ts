import { watch, type FSWatcher } from 'node:fs';
import { loadScreenCatalogue, type ScreenCatalogue, type Translate } from './composer';

/** A screen catalogue that follows its folder; `close()` stops following. */
export interface WatchedScreenCatalogue extends ScreenCatalogue {
  close(): void;
}

/**
 * Development (`npm run dev`, issue 16 item 3): the screen catalogue of `dir`, reloaded when a file under it
 * is saved — a definition, a fragment, a fixture context or data — without restarting the server. Each
 * reload reads and checks every definition exactly as the server does at start ({@link loadScreenCatalogue}:
 * fragments, schemas, every fixture context). An invalid save keeps the last good definitions (what is
 * served does not change) and is reported through `onError` (a ScreenDefinitionError names the file and
 * JSON path); a good one is served from the next request on, and `revision()` moves on so that kept
 * public screens are composed again. Saves closer together than `debounceMs` (default 100) reload once.
 * Locale files are not followed (they are read once per process).
 */
export function watchScreenCatalogue(opts: {
  dir: string;
  translate: Translate;
  /** The catalogue to serve until the first change (default: loaded and checked now). */
  initial?: ScreenCatalogue;
  /** After a good reload, with the screen ids now served. */
  onReload?: (ids: string[]) => void;
  /** After a save that does not load; the last good definitions are kept. */
  onError?: (err: unknown) => void;
  debounceMs?: number;
}): WatchedScreenCatalogue {
  let current = opts.initial ?? loadScreenCatalogue({ dir: opts.dir, translate: opts.translate });
  let revision = 0;
  let timer: NodeJS.Timeout | undefined;
  const reload = () => {
    timer = undefined;
    try {
      current = loadScreenCatalogue({ dir: opts.dir, translate: opts.translate });
      revision += 1;
      opts.onReload?.(current.ids());
    } catch (err) {
      opts.onError?.(err);
    }
  };
  const watcher: FSWatcher = watch(opts.dir, { recursive: true }, (_event, name) => {
    // Editors save through temporary files (`.x.json.swp`, `x.json~`): only JSON files count.
    if (name && !String(name).endsWith('.json')) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(reload, opts.debounceMs ?? 100);
  });
  return {
    has: (id) => current.has(id),
    isPublic: (id) => current.isPublic(id),
    ids: () => current.ids(),
    compose: (id, ctx) => current.compose(id, ctx),
    revision: (id) => revision + (current.revision?.(id) ?? 0),
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
