import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/react-vite';

/** The repository root (this file lives in .storybook/). */
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Storybook for designers: every widget and every state (written by hand: `storybook init` is broken for
 * 10.6.7, see STACK.md). Stories come from widgets/ (one file per widget) and stories/ (overviews).
 */
const config: StorybookConfig = {
  stories: ['../widgets/**/*.stories.tsx', '../stories/**/*.stories.tsx'],
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
      server: { ...server, proxy: undefined, fs: { allow: [projectRoot] } },
    });
  },
};

export default config;
