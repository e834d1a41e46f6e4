import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { BUILD_VARIANTS, variantDefine } from './schemas/app/build-variants.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * Two projects: the server and schema tools in Node, the client in jsdom. The client code is tested as the
 * standard build variant (schemas/app/build-variants.ts; vite.config.ts builds the others).
 */
export default defineConfig({
  plugins: [react()],
  define: variantDefine('standard'),
  resolve: { alias: [{ find: /^@brand\/logo\.svg/, replacement: `${here}${BUILD_VARIANTS.standard.logo}` }] },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['bff/**/*.test.ts', 'schemas/**/*.test.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
          // PGlite takes ~700 MB an instance: keep the number of workers small.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['renderer/**/*.test.{ts,tsx}', 'widgets/**/*.test.{ts,tsx}'],
          setupFiles: ['renderer/test-setup.ts'],
          // userEvent typing in jsdom is slow on a busy 2-core machine; 5 s is too tight there.
          testTimeout: 20000,
          // Vitest's default is one worker fewer than the cores: one on CI's two, which left a core idle
          // (dom files alone: 148 s with one worker, 99 s with two, on this 2-core machine).
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
