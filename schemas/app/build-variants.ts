/**
 * The build variants of the client (SPEC §9: 'A China client build uses a different logo and analytics
 * target; other builds use a standard target'; issue 15 item 7), in one place: the one file the build
 * (vite.config.ts), the BFF (which serves a variant's build and takes each variant's analytics events) and
 * the checks read. One codebase: a variant only changes the values below.
 *
 * Choosing one: `vite build --mode china` (`npm run build:china`) or `BUILD_VARIANT=china` (build and
 * serve); without either, the standard build. The browser gets the chosen variant's values at build time
 * only (vite.config.ts `define` and the `@brand/logo.svg` alias), never this table: a China bundle holds
 * no standard value, and the reverse (`npm run check:variants`).
 *
 * What the client loads from other hosts is not a build value: the map tiles (MAP_TILE_URL, '' for none),
 * the sign-in providers (GOOGLE_… / FACEBOOK_… / APPLE_…), the partner site and tracing (OTEL_…) are
 * server settings, given per deployment. Fonts are bundled (no font host).
 */

/** The values of one variant. */
export interface BuildVariant {
  /** The app's name in the page title and `application-name` before the app starts (plain text, no `<>&"`). */
  appName: string;
  /** The logo at the top of the signed-out pages: an SVG file, path from the repository root. */
  logo: string;
  /**
   * Where the browser sends its analytics events (a same-origin path under /hms_ms/, so neither the
   * Content-Security-Policy nor the session cookie changes). The BFF takes every variant's path; events
   * that come through a path other than the standard one carry `build_variant` among their properties.
   */
  analyticsEndpoint: string;
  /** Folder of the built client, from the repository root (each variant its own, so both can be kept). */
  outDir: string;
}

/** The variants by name; `standard` is the default. */
export const BUILD_VARIANTS = {
  standard: {
    appName: 'Property Onboarding',
    logo: 'renderer/brand/logo.svg',
    analyticsEndpoint: '/hms_ms/api/v1/analytics/events',
    outDir: 'dist/client',
  },
  china: {
    appName: '物业入驻 Property Onboarding',
    logo: 'renderer/brand/logo-china.svg',
    analyticsEndpoint: '/hms_ms/api/v1/analytics/cn/events',
    outDir: 'dist/client-china',
  },
} as const satisfies Record<string, BuildVariant>;

/**
 * Folder of a variant's server drawing of the first screen (`vite build --ssr server-render.tsx`, issue 13
 * item 4) beside its client's `outDir`: a module the BFF imports (bff/plugins/external/static.ts `serverDrawingOf`),
 * never served, so never inside the client's folder.
 */
export function ssrOutDirOf(outDir: string): string {
  return `${outDir}-ssr`;
}

/** The name of a variant. */
export type BuildVariantName = keyof typeof BUILD_VARIANTS;

/** The variant built and served when nothing names another. */
export const DEFAULT_BUILD_VARIANT: BuildVariantName = 'standard';

/** Whether `name` names a variant of {@link BUILD_VARIANTS}. */
export function isBuildVariantName(name: string): name is BuildVariantName {
  return Object.hasOwn(BUILD_VARIANTS, name);
}

/**
 * The variant a build is for: `BUILD_VARIANT` when set (non-empty), else Vite's `mode` when it names a
 * variant (`--mode china`), else {@link DEFAULT_BUILD_VARIANT} (Vite's own modes `production` and
 * `development` are the standard build).
 * @throws Error when `BUILD_VARIANT` is set to a name that is not a variant, or it and `--mode` name two
 *   different variants (a typo must not ship a standard build as China's).
 */
export function resolveBuildVariant(options: { mode?: string; env?: string }): BuildVariantName {
  const env = options.env?.trim() ?? '';
  const mode = options.mode && isBuildVariantName(options.mode) ? options.mode : null;
  if (env !== '') {
    if (!isBuildVariantName(env)) {
      throw new Error(
        `BUILD_VARIANT=${env} is not a build variant (${Object.keys(BUILD_VARIANTS).join(', ')})`,
      );
    }
    if (mode && mode !== env)
      throw new Error(`BUILD_VARIANT=${env} and --mode ${mode} name different variants`);
    return env;
  }
  return mode ?? DEFAULT_BUILD_VARIANT;
}

/**
 * What the browser code of a variant is built with: Vite `define` entries for `import.meta.env`
 * (`VITE_BUILD_VARIANT`, `VITE_APP_NAME`, `VITE_ANALYTICS_ENDPOINT`, as JSON string literals; index.html
 * reads `%VITE_APP_NAME%`). vitest.config.ts uses the standard one.
 */
export function variantDefine(name: BuildVariantName): Record<string, string> {
  const variant: BuildVariant = BUILD_VARIANTS[name];
  return {
    'import.meta.env.VITE_BUILD_VARIANT': JSON.stringify(name),
    'import.meta.env.VITE_APP_NAME': JSON.stringify(variant.appName),
    'import.meta.env.VITE_ANALYTICS_ENDPOINT': JSON.stringify(variant.analyticsEndpoint),
  };
}

/** Every variant's analytics path with its variant (the BFF registers each; paths shared are one route). */
export function analyticsEndpoints(): Array<{ path: string; variant: BuildVariantName }> {
  const seen = new Set<string>();
  const out: Array<{ path: string; variant: BuildVariantName }> = [];
  for (const [variant, values] of Object.entries(BUILD_VARIANTS) as Array<[BuildVariantName, BuildVariant]>) {
    if (seen.has(values.analyticsEndpoint)) continue;
    seen.add(values.analyticsEndpoint);
    out.push({ path: values.analyticsEndpoint, variant });
  }
  return out;
}
