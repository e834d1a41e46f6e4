import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/react-vite';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';

/** The repository root (this file lives in .storybook/). */
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

const PAYLOADS = 'virtual:screen-payloads/';

/**
 * Serves `virtual:screen-payloads/<screen_id>` to the stories of stories/screens/: the screen composed for
 * each of its fixture contexts in English and Arabic by the real composer (bff/screens/screen-stories.ts),
 * when Storybook builds: one chunk per screen, loaded by its stories. A definition that does not compose
 * fails the build with its file and JSON path, as `npm run screens:check` would. The composer runs once, in
 * a child process under tsx (`gen-screen-stories.ts --payloads`): Storybook's loader, which reads this
 * file, warns at every extensionless import of the server's modules.
 */
function screenPayloads(): Plugin {
  let all: Promise<Record<string, unknown>> | undefined;
  return {
    name: 'screen-payloads',
    // `npm run storybook`: a saved definition, fragment, fixture context or locale file composes again.
    configureServer(server) {
      const watched = [join(projectRoot, 'bff/screens'), join(projectRoot, 'renderer/i18n/locales')];
      server.watcher.add(watched);
      server.watcher.on('change', (file) => {
        if (!file.endsWith('.json') || !watched.some((dir) => file.startsWith(dir))) return;
        all = undefined;
        for (const module of server.moduleGraph.idToModuleMap.values()) {
          if (module.id?.startsWith(`\0${PAYLOADS}`)) server.moduleGraph.invalidateModule(module);
        }
        server.ws.send({ type: 'full-reload' });
      });
    },
    resolveId: (id) => (id.startsWith(PAYLOADS) ? `\0${id}` : undefined),
    async load(id) {
      if (!id.startsWith(`\0${PAYLOADS}`)) return undefined;
      all ??= promisify(execFile)(
        process.execPath,
        [
          join(projectRoot, 'node_modules/tsx/dist/cli.mjs'),
          join(projectRoot, 'bff/screens/gen-screen-stories.ts'),
          '--payloads',
        ],
        { maxBuffer: 256 * 1024 * 1024 },
      ).then(({ stdout }) => JSON.parse(stdout) as Record<string, unknown>);
      const screen = id.slice(`\0${PAYLOADS}`.length);
      const payloads = (await all)[screen];
      if (!payloads) throw new Error(`no screen definition bff/screens/${screen}.json`);
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(payloads))});`;
    },
  };
}

const config: StorybookConfig = {
  stories: ['../widgets/**/*.stories.tsx', '../stories/**/*.stories.tsx'],
  addons: ['@storybook/addon-a11y'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true },
  typescript: { reactDocgen: false },
  /**
   * The root vite.config.ts serves the app: root 'renderer', base '/propertyOnboard/', an API proxy and
   * dist/client as output. None of that fits Storybook, which needs the repository as root (its stories
   * import widgets/, schemas/ and renderer/) and relative asset paths so storybook-static/ opens anywhere.
   */
  viteFinal: async (viteConfig) => {
    const { mergeConfig } = await import('vite');
    const { server, ...rest } = viteConfig;
    return mergeConfig(rest, {
      root: projectRoot,
      base: './',
      publicDir: false,
      plugins: [screenPayloads()],
      server: { ...server, proxy: undefined, fs: { allow: [projectRoot] } },
    });
  },
};

export default config;
