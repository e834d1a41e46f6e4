import { describe, expect, it } from 'vitest';
import { pageChunkKeys, type Manifest } from './vite-manifest';

const manifest: Manifest = {
  '_rolldown-runtime-W.js': { file: 'assets/rolldown-runtime-W.js' },
  '_initial-B.js': { file: 'assets/initial-B.js', imports: ['_rolldown-runtime-W.js'] },
  'shell/footer.tsx': { file: 'assets/footer-J.js', isDynamicEntry: true, imports: ['_initial-B.js'] },
};

describe('pageChunkKeys', () => {
  it('names the chunks the page loads itself when the manifest has no entry (an entry that awaits)', () => {
    const html =
      '<head><script type="module" crossorigin src="/propertyOnboard/assets/rolldown-runtime-W.js"></script>' +
      '<script type="module" crossorigin src="/propertyOnboard/assets/initial-B.js"></script></head>';
    expect(pageChunkKeys(manifest, html).sort()).toEqual(['_initial-B.js', '_rolldown-runtime-W.js']);
  });

  it('counts module preloads, not other scripts, stylesheets or lazy chunks', () => {
    const html =
      '<link rel="modulepreload" crossorigin href="/propertyOnboard/assets/initial-B.js">' +
      '<script src="/propertyOnboard/assets/rolldown-runtime-W.js"></script>' +
      '<link rel="stylesheet" href="/propertyOnboard/assets/footer-J.js">';
    expect(pageChunkKeys(manifest, html)).toEqual(['_initial-B.js']);
  });

  it("keeps the manifest's own entry", () => {
    const withEntry: Manifest = { ...manifest, 'index.html': { file: 'assets/index-D.js', isEntry: true } };
    expect(pageChunkKeys(withEntry, '')).toEqual(['index.html']);
  });
});
