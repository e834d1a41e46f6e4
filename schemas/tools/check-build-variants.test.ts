import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuildVariant } from '../app/build-variants';
import { checkVariantBuild } from './check-build-variants';

let repo: string;

/** Two variants as the app has them, with their logos in a temporary repository. */
const variants: Record<string, BuildVariant> = {
  standard: {
    appName: 'Onboard',
    logo: 'brand/a.svg',
    analyticsEndpoint: '/hms_ms/api/v1/e',
    outDir: 'dist/a',
  },
  china: {
    appName: '入驻 Onboard',
    logo: 'brand/b.svg',
    analyticsEndpoint: '/hms_ms/api/v1/cn/e',
    outDir: 'dist/b',
  },
};
const LOGO_A = '<svg xmlns="http://www.w3.org/2000/svg"><text>A</text></svg>';
const LOGO_B = '<svg xmlns="http://www.w3.org/2000/svg"><text>B</text></svg>';

/** A built client of `name` in dist/<name>: index.html, one entry chunk and the given svg files. */
function build(name: string, title: string, js: string, svgs: Record<string, string>): string {
  const dir = join(repo, 'dist', name);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), `<!doctype html><title>${title}</title><div id="root"></div>`);
  writeFileSync(join(dir, 'assets/index-x1.js'), js);
  for (const [file, text] of Object.entries(svgs)) writeFileSync(join(dir, 'assets', file), text);
  return dir;
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'variants-'));
  mkdirSync(join(repo, 'brand'));
  writeFileSync(join(repo, 'brand/a.svg'), LOGO_A);
  writeFileSync(join(repo, 'brand/b.svg'), LOGO_B);
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('checkVariantBuild (SPEC §9, issue 15 item 7)', () => {
  it('passes a China build with its own title, analytics endpoint and logo only', () => {
    const dir = build('b', '入驻 Onboard', 'fetch("/hms_ms/api/v1/cn/e");img("/assets/b-h1.svg")', {
      'b-h1.svg': LOGO_B,
      'other.svg': '<svg/>',
    });
    expect(checkVariantBuild(dir, 'china', variants, repo)).toEqual([]);
  });

  it('names every standard value found in a China build', () => {
    const dir = build('b', 'Onboard', 'fetch("/hms_ms/api/v1/e");img("/assets/a-h2.svg")', {
      'a-h2.svg': LOGO_A,
    });
    expect(checkVariantBuild(dir, 'china', variants, repo)).toEqual([
      'index.html: title is not "入驻 Onboard"',
      'no JavaScript file holds the analytics endpoint /hms_ms/api/v1/cn/e',
      'the logo brand/b.svg is not among the files',
      'assets/index-x1.js holds the standard analytics endpoint /hms_ms/api/v1/e',
      'assets/a-h2.svg is the standard logo brand/a.svg',
      'index.html has the standard title',
    ]);
  });

  it('finds the China values in a standard build, and a logo the code does not refer to', () => {
    const dir = build('a', 'Onboard', 'fetch("/hms_ms/api/v1/e");fetch("/hms_ms/api/v1/cn/e")', {
      'a-h3.svg': LOGO_A,
      'b-h4.svg': LOGO_B,
    });
    expect(checkVariantBuild(dir, 'standard', variants, repo)).toEqual([
      'no JavaScript file refers to the logo assets/a-h3.svg',
      'assets/index-x1.js holds the china analytics endpoint /hms_ms/api/v1/cn/e',
      'assets/b-h4.svg is the china logo brand/b.svg',
    ]);
  });

  it('throws when the variant is not built or not a variant', () => {
    expect(() => checkVariantBuild(join(repo, 'dist/none'), 'china', variants, repo)).toThrow(
      /index\.html is missing/,
    );
    expect(() => checkVariantBuild(repo, 'mars', variants, repo)).toThrow(/not a build variant/);
  });
});
