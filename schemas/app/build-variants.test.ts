import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { UserConfig } from 'vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import viteConfig from '../../vite.config';
import {
  analyticsEndpoints,
  BUILD_VARIANTS,
  DEFAULT_BUILD_VARIANT,
  resolveBuildVariant,
  variantDefine,
} from './build-variants';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** vite.config.ts as Vite resolves it for `vite build --mode <mode>`. */
async function viteConfigFor(mode: string): Promise<UserConfig> {
  if (typeof viteConfig !== 'function') throw new Error('vite.config.ts exports a config function');
  return await viteConfig({ command: 'build', mode, isSsrBuild: false, isPreview: false });
}

const logoAlias = (config: UserConfig) =>
  (config.resolve?.alias as Array<{ find: RegExp; replacement: string }>).find((a) =>
    a.find.test('@brand/logo.svg?no-inline'),
  )?.replacement;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('build variants (SPEC §9, issue 15 item 7)', () => {
  it('picks BUILD_VARIANT, else a --mode that names a variant, else the standard build', () => {
    expect(resolveBuildVariant({})).toBe('standard');
    expect(resolveBuildVariant({ mode: 'production' })).toBe('standard');
    expect(resolveBuildVariant({ mode: 'development', env: '' })).toBe('standard');
    expect(resolveBuildVariant({ mode: 'china' })).toBe('china');
    expect(resolveBuildVariant({ mode: 'production', env: 'china' })).toBe('china');
    expect(resolveBuildVariant({ mode: 'china', env: 'china' })).toBe('china');
    expect(DEFAULT_BUILD_VARIANT).toBe('standard');
  });

  it('refuses an unknown BUILD_VARIANT and a --mode naming another variant', () => {
    expect(() => resolveBuildVariant({ env: 'chinaa' })).toThrow(
      /BUILD_VARIANT=chinaa is not a build variant/,
    );
    expect(() => resolveBuildVariant({ mode: 'china', env: 'standard' })).toThrow(/different variants/);
  });

  it('gives each variant its own logo file, analytics path under /hms_ms/, output folder and plain-text name', () => {
    const variants = Object.values(BUILD_VARIANTS);
    for (const key of ['logo', 'analyticsEndpoint', 'outDir', 'appName'] as const) {
      expect(new Set(variants.map((v) => v[key])).size, key).toBe(variants.length);
    }
    for (const v of variants) {
      expect(v.analyticsEndpoint).toMatch(/^\/hms_ms\/api\/v1\/[a-z0-9/_-]+$/);
      expect(v.appName).not.toMatch(/[<>&"]/);
      expect(existsSync(`${root}${v.logo}`), v.logo).toBe(true);
      expect(readFileSync(`${root}${v.logo}`, 'utf8')).toMatch(
        /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
      );
      expect(
        v.logo.startsWith('renderer/public/'),
        'a logo in public/ would be copied into every build',
      ).toBe(false);
    }
    expect(BUILD_VARIANTS.standard.outDir).toBe('dist/client');
  });

  it('defines the chosen variant’s values for the browser code and index.html', () => {
    expect(variantDefine('china')).toEqual({
      'import.meta.env.VITE_BUILD_VARIANT': '"china"',
      'import.meta.env.VITE_APP_NAME': JSON.stringify(BUILD_VARIANTS.china.appName),
      'import.meta.env.VITE_ANALYTICS_ENDPOINT': '"/hms_ms/api/v1/analytics/cn/events"',
    });
    expect(variantDefine('standard')['import.meta.env.VITE_ANALYTICS_ENDPOINT']).toBe(
      '"/hms_ms/api/v1/analytics/events"',
    );
  });

  it('lists every analytics path once for the server, the standard one first', () => {
    expect(analyticsEndpoints()).toEqual([
      { path: '/hms_ms/api/v1/analytics/events', variant: 'standard' },
      { path: '/hms_ms/api/v1/analytics/cn/events', variant: 'china' },
    ]);
  });

  it('resolves vite.config.ts for both variants from this one table', async () => {
    vi.stubEnv('BUILD_VARIANT', '');
    const standard = await viteConfigFor('production');
    const china = await viteConfigFor('china');
    expect(standard.build?.outDir).toBe(`${root}dist/client`);
    expect(china.build?.outDir).toBe(`${root}dist/client-china`);
    expect(standard.define).toEqual(variantDefine('standard'));
    expect(china.define).toEqual(variantDefine('china'));
    expect(logoAlias(standard)).toBe(`${root}renderer/brand/logo.svg`);
    expect(logoAlias(china)).toBe(`${root}renderer/brand/logo-china.svg`);
    // Everything else is the one codebase's: the same base, entry and plugins.
    expect(china.base).toBe(standard.base);
    expect(china.root).toBe(standard.root);
    expect(china.plugins?.length).toBe(standard.plugins?.length);

    vi.stubEnv('BUILD_VARIANT', 'china');
    expect((await viteConfigFor('production')).build?.outDir).toBe(`${root}dist/client-china`);
  });
});
