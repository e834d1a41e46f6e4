import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';
import {
  BUILD_VARIANTS,
  resolveBuildVariant,
  ssrOutDirOf,
  variantDefine,
} from './schemas/app/build-variants.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * react-router's components made with `React.forwardRef(…)` at the top of its bundle (Link, NavLink, Form)
 * are calls, and their `X.displayName = "X"` lines property writes, that the bundler must keep unless told
 * otherwise, and with them everything they reference (form submission, fetchers, route prefetching), though
 * the app draws none of them. forwardRef has no side effect, and the names serve React's devtools only: the
 * calls are marked `/* @__PURE__ *\/` and the names left out, in the production files react-router is
 * resolved to, so what nothing uses is left out (react-router 11.8 → 7.4 KB gzip, issue 13 item 2).
 */
function reactRouterPureComponents(): Plugin {
  return {
    name: 'react-router-pure-components',
    transform: {
      filter: { id: /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/][\w-]+\.mjs$/ },
      handler(code) {
        const marked = code
          .replace(/^(var \w+ = )(React\d*\.forwardRef\()/gm, '$1/* @__PURE__ */ $2')
          .replace(/^\w+\.displayName = "[\w.]+";$/gm, '');
        return marked === code ? null : { code: marked, map: null };
      },
    },
  };
}

/**
 * One import of one MUI module answered with another module: `source` as MUI's `importer` (its path under
 * @mui/material, e.g. `ButtonBase/ButtonBase.mjs`) writes it, resolved to `target` (a file of this repository
 * from its root, or a path beside `importer`). Every other import of the same module reaches MUI's.
 */
function muiImportReplaced(name: string, importer: string, source: string, target: string): Plugin {
  const suffix = `/@mui/material/${importer}`;
  return {
    name,
    enforce: 'pre',
    resolveId(asked, from) {
      if (asked !== source || !from?.replaceAll('\\', '/').endsWith(suffix)) return null;
      return target.startsWith('.') ? this.resolve(target, from, { skipSelf: true }) : `${here}${target}`;
    },
  };
}

/**
 * MUI's ButtonBase (every Button, IconButton…) imports its TouchRipple statically, though it draws it only from
 * a button's first press or keyboard focus on. Here ButtonBase gets renderer/shell/touch-ripple.tsx instead,
 * which loads MUI's TouchRipple as a chunk of its own (≈2 KB gzip less on every page, issue 13 item 2).
 */
const lazyTouchRipple = () =>
  muiImportReplaced(
    'lazy-touch-ripple',
    'ButtonBase/ButtonBase.mjs',
    './TouchRipple.mjs',
    'renderer/shell/touch-ripple.tsx',
  );

/**
 * MUI's InputBase (every text field) imports TextareaAutosize statically, though it draws it only for a
 * multiline field, which no field of the first page is. Here InputBase gets widgets/textarea-autosize.tsx
 * instead, which loads MUI's TextareaAutosize as a chunk of its own (≈0.6 KB gzip less on every page, issue 13
 * item 2); the chunks that draw a multiline field fetch it with themselves.
 */
const lazyTextareaAutosize = () =>
  muiImportReplaced(
    'lazy-textarea-autosize',
    'InputBase/InputBase.mjs',
    '../TextareaAutosize/index.mjs',
    'widgets/textarea-autosize.tsx',
  );

/**
 * MUI's NativeSelect imports the standard-variant `Input` for its default `input` prop, a module the app
 * never draws: its only NativeSelect (widgets/input/text-field.tsx, the phone field's country) always passes
 * an `OutlinedInput`. Here NativeSelect's import of `Input` resolves to `OutlinedInput`, which the page has
 * anyway, so a NativeSelect without an `input` prop is outlined (≈0.55 KB gzip less on every page, issue 13
 * item 2). Other imports of `Input` (MUI's TextField in lazy widgets) reach MUI's module.
 */
const nativeSelectOutlined = () =>
  muiImportReplaced(
    'native-select-outlined',
    'NativeSelect/NativeSelect.mjs',
    '../Input/index.mjs',
    '../OutlinedInput/index.mjs',
  );

/**
 * MUI without its CSS-variables theme engine. The app's theme (renderer/shell/theme.ts) has no
 * `cssVariables` and no `colorSchemes`, and so does MUI's own default theme: for both, `createTheme` returns
 * `createThemeNoVars(...)` and `ThemeProvider` renders `ThemeProviderNoVars`. Both wrappers still import the
 * CSS-variables code statically (createThemeWithVars, CssVarsProvider, InitColorSchemeScript: ≈6 KB gzip on
 * every route, issue 13 item 2), so the build loads these two modules as the no-variables paths alone. A
 * theme with CSS variables would throw at start (never silently look different).
 */
function muiWithoutCssVariables(): Plugin {
  const moduleOf = (id: string) => /[\\/]@mui[\\/]material[\\/]styles[\\/](\w+)\.mjs(\?|$)/.exec(id)?.[1];
  return {
    name: 'mui-without-css-variables',
    enforce: 'pre',
    load(id) {
      const module = moduleOf(id);
      if (module === 'createTheme') {
        return [
          "import createThemeNoVars from './createThemeNoVars.mjs';",
          'export default function createTheme(options = {}, ...args) {',
          "  if (options.cssVariables || 'colorSchemes' in options)",
          "    throw new Error('This build has no MUI CSS-variables themes (vite.config.ts).');",
          '  return createThemeNoVars(options, ...args);',
          '}',
        ].join('\n');
      }
      if (module === 'ThemeProvider') {
        return [
          "import { useMemo } from 'react';",
          "import { jsx } from 'react/jsx-runtime';",
          "import ThemeProviderNoVars from './ThemeProviderNoVars.mjs';",
          "import THEME_ID from './identifier.mjs';",
          'export default function ThemeProvider({ theme, ...props }) {',
          '  const noVarsTheme = useMemo(() => {',
          "    if (typeof theme === 'function') return theme;",
          '    const muiTheme = THEME_ID in theme ? theme[THEME_ID] : theme;',
          "    if ('colorSchemes' in muiTheme)",
          "      throw new Error('This build has no MUI CSS-variables themes (vite.config.ts).');",
          "    return 'vars' in muiTheme ? theme : { ...theme, vars: null };",
          '  }, [theme]);',
          '  return jsx(ThemeProviderNoVars, { theme: noVarsTheme, ...props });',
          '}',
        ].join('\n');
      }
      return null;
    },
  };
}

/**
 * The client: renderer/index.html is the entry, built to dist/client and served by the BFF under
 * /propertyOnboard/ (the base path of SPEC §1). In `npm run dev` the BFF runs separately on :3000 and
 * Vite proxies the API to it.
 *
 * Build variants (SPEC §9, issue 15 item 7; schemas/app/build-variants.ts): `--mode china` or
 * `BUILD_VARIANT=china` builds the China client into its own folder (dist/client-china) with its name,
 * logo (`@brand/logo.svg`) and analytics endpoint; anything else is the standard build.
 */
export default defineConfig(({ mode, isSsrBuild = false }) => {
  const variantName = resolveBuildVariant({ mode, env: process.env.BUILD_VARIANT });
  const variant = BUILD_VARIANTS[variantName];
  return {
    root: 'renderer',
    base: '/propertyOnboard/',
    // The server's drawing of the first screen (`--ssr server-render.tsx`) needs neither the public files nor
    // compressed copies: it is a module the BFF imports, never served.
    publicDir: isSsrBuild ? false : 'public',
    // The server's drawing is built as production code whatever NODE_ENV the server runs with (see `ssr`).
    define: {
      ...variantDefine(variantName),
      ...(isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {}),
    },
    plugins: [
      muiWithoutCssVariables(),
      reactRouterPureComponents(),
      lazyTouchRipple(),
      nativeSelectOutlined(),
      lazyTextareaAutosize(),
      react(),
      // Every text asset also as .br and .gz beside it, served by the BFF with @fastify/static's preCompressed
      // (issue 13 item 1); source maps are not served in production, so they are not compressed.
      !isSsrBuild &&
        compression({
          algorithms: ['brotliCompress', 'gzip'],
          include: /\.(html|xml|css|json|js|mjs|svg|txt|webmanifest|ico)$/,
          exclude: /\.map$/,
        }),
    ],
    // The server's drawing imports packages from node_modules as Node does, but for these, bundled into it:
    // - MUI and emotion, built as the client builds them (the plugins above, production code): run from
    //   node_modules under a server without NODE_ENV=production (`npm run serve`, the bench), MUI's development
    //   code named every style after its component (`mui-1sazv7p-MuiStack-root`), so the client's names
    //   (`mui-1ov46kg`) matched none of the page's styles and the hydration serialised and inserted every one of
    //   them again (≈150 rules, ≈15 ms of one task at 1× CPU);
    // - stylis-plugin-rtl: built from ES modules to CommonJS with `__esModule`, Node hands its default import
    //   over as `{ default }`, which emotion then calls; bundled, it is interoperated as in the client.
    ssr: { noExternal: [/^@mui\//, /^@emotion\//, 'stylis-plugin-rtl'] },
    resolve: {
      alias: [
        // The variant's logo; imported with `?no-inline`, so it is a file of its own, never bytes of the JS.
        { find: /^@brand\/logo\.svg/, replacement: `${here}${variant.logo}` },
        {
          find: /^react-router$/,
          replacement: `${here}node_modules/react-router/dist/production/index.mjs`,
        },
        // react-i18next takes `useSyncExternalStore` from the shim for React 17; React 19 has its own, which the
        // shim hands back at run time anyway (≈0.25 KB gzip of every page, issue 13 item 2).
        { find: /^use-sync-external-store\/shim$/, replacement: 'react' },
      ],
    },
    build: {
      outDir: `${here}${isSsrBuild ? ssrOutDirOf(variant.outDir) : variant.outDir}`,
      emptyOutDir: true,
      sourcemap: true,
      // .vite/manifest.json: bench/size-budget.ts reads which chunks each route loads.
      manifest: !isSsrBuild,
      target: 'es2022',
      // No polyfill of `<link rel="modulepreload">`: the browsers of es2022 have it but Safari before 17, where
      // the page's own imports fetch the same modules (≈0.3 KB gzip of every page, issue 13 item 2).
      modulePreload: { polyfill: false },
      rolldownOptions: {
        treeshake: {
          // @emotion/react imports hoist-non-react-statics for its side effects alone (`import '…'`), and the
          // package does not say it has none, so it and its copy of react-is (≈1.7 KB gzip) came with every
          // page though only emotion's `withTheme`, which nothing here uses, reads it. It has none.
          moduleSideEffects: (id: string) =>
            /\/node_modules\/hoist-non-react-statics\//.test(id) ? false : undefined,
        },
        output: {
          // Every module the page imports statically ('$initial') goes into the entry chunk: one request and
          // one gzip/brotli stream instead of ≈20 small shared chunks, each with its own headers and a place
          // in the browser's six connections (issue 13 items 2 and 4). Lazy widgets, validators and the
          // libraries only they use stay chunks of their own.
          codeSplitting: {
            groups: [{ name: 'initial', tags: ['$initial'] }],
          },
        },
      },
    },
    server: {
      fs: { allow: [here] },
      proxy: {
        '/hms_ms': 'http://localhost:3000',
        '/owner_ms': 'http://localhost:3000',
        '/__dev': 'http://localhost:3000',
      },
    },
  };
});
