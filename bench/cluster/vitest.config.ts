import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the tests of the built server, run after `npm run build`: the cluster of issue 14
 * (bench/cluster/cluster.test.ts, needs PostgreSQL), the start from the PGlite image
 * (bench/cluster/built-server.test.ts) and the HTTPS front of deploy/nginx.conf (bench/cluster/tls-front.test.ts); one file at a time, one worker (the cluster takes the machine's two cores).
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['bench/cluster/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
