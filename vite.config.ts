import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The client: renderer/index.html is the entry, built to dist/client and served by the BFF under
 * /propertyOnboard/ (the base path of SPEC §1). In `npm run dev` the BFF runs separately on :3000 and
 * Vite proxies the API to it.
 */
export default defineConfig({
  root: 'renderer',
  base: '/propertyOnboard/',
  publicDir: 'public',
  plugins: [
    react(),
    // Every text asset also as .br and .gz beside it, served by the BFF with @fastify/static's preCompressed
    // (issue 13 item 1); source maps are not served in production, so they are not compressed.
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(html|xml|css|json|js|mjs|svg|txt|webmanifest|ico)$/,
      exclude: /\.map$/,
    }),
  ],
  build: {
    outDir: `${here}dist/client`,
    emptyOutDir: true,
    sourcemap: true,
    // .vite/manifest.json: bench/size-budget.ts reads which chunks each route loads.
    manifest: true,
    target: 'es2022',
  },
  server: {
    fs: { allow: [here] },
    proxy: {
      '/hms_ms': 'http://localhost:3000',
      '/owner_ms': 'http://localhost:3000',
      '/__dev': 'http://localhost:3000',
    },
  },
});
