/**
 * The Vite manifest of a built client (`dist/client/.vite/manifest.json`, `build.manifest` in vite.config.ts), as
 * the server (bff/plugins/external/static.ts: the code a page preloads) and the bench (bench/size-budget.ts: the
 * code of each route) read it.
 */

/** One chunk of the manifest (only the fields read here), keyed by its source path from renderer/. */
export interface ManifestChunk {
  /** The built file, from the client's folder (e.g. `assets/initial-BXOfxppT.js`). */
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  /** Manifest keys of the chunks it imports statically. */
  imports?: string[];
  /** Manifest keys of the chunks it imports on demand. */
  dynamicImports?: string[];
}

/** The manifest: manifest key → chunk. */
export type Manifest = Record<string, ManifestChunk>;

/**
 * The manifest keys of the chunks a built page loads with its HTML: the entry's (`isEntry`) and those `html`
 * (the built index.html) names itself, as `<script type="module" src>` or `<link rel="modulepreload" href>`.
 * Vite leaves the entry out of the manifest when its chunk only imports others, and names those in the page
 * instead: Rolldown makes the entry such a facade when the entry's code awaits at its top level (the entry's
 * evaluation in stages, renderer/shell/entry-stages).
 */
export function pageChunkKeys(manifest: Manifest, html: string): string[] {
  const files = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    if (!/\btype="module"|\brel="modulepreload"/.test(tag)) continue;
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    const file = url && /(?:^|\/)(assets\/[^/?#]+)/.exec(url)?.[1];
    if (file) files.add(file);
  }
  return Object.keys(manifest).filter((key) => manifest[key]!.isEntry || files.has(manifest[key]!.file));
}
