import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the cluster tests of issue 14 (bench/cluster/cluster.test.ts) against the built
 * server; run after `npm run build`, one file, one worker (the cluster takes the machine's two cores).
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
