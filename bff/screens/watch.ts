import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { loadScreenCatalogue, type ScreenCatalogue, type Translate } from './composer';

/** Swap, backup and lock files of editors (vim, emacs), never definitions. */
const EDITOR_SCRATCH = /(\.sw[a-px]|~|(^|\/)\.#[^/]*|(^|\/)4913)$/;

/** A screen catalogue that follows its folder; `close()` stops following. */
export interface WatchedScreenCatalogue extends ScreenCatalogue {
  /** Moves on at every good reload. */
  revision(id: string): number;
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
      follow(opts.dir); // folders made since
      current = loadScreenCatalogue({ dir: opts.dir, translate: opts.translate });
      revision += 1;
      opts.onReload?.(current.ids());
    } catch (err) {
      opts.onError?.(err);
    }
  };
  // One watch per folder, not one recursive watch: Node 20's recursive watch on Linux loses a file that is
  // replaced twice by a rename (`sed -i`, editors saving through a temporary file); a folder's watch does not.
  const watchers = new Map<string, FSWatcher>();
  const follow = (folder: string) => {
    if (!watchers.has(folder)) {
      const w = watch(folder, (_event, name) => {
        if (name && EDITOR_SCRATCH.test(String(name))) return;
        if (timer) clearTimeout(timer);
        timer = setTimeout(reload, opts.debounceMs ?? 100);
      });
      // A folder removed: its watch ends (a new one is followed at the next reload).
      w.on('error', () => {
        w.close();
        watchers.delete(folder);
      });
      watchers.set(folder, w);
    }
    for (const entry of readdirSync(folder, { withFileTypes: true }))
      if (entry.isDirectory()) follow(join(folder, entry.name));
  };
  follow(opts.dir);
  return {
    has: (id) => current.has(id),
    isPublic: (id) => current.isPublic(id),
    ids: () => current.ids(),
    compose: (id, ctx) => current.compose(id, ctx),
    variant: (id, switches) => current.variant?.(id, switches) ?? null,
    revision: (id) => revision + (current.revision?.(id) ?? 0),
    close() {
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
    },
  };
}
