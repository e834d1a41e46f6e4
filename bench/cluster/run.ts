/**
 * `npm run cluster`: starts the test topology of issue 14 (bench/cluster/topology.ts) — a fresh PostgreSQL
 * database, a Redis, two BFF instances and nginx round robin — prints its addresses and runs until Ctrl-C.
 * Needs `npm run build` first, Debian's nginx (`apt-get install -y nginx-light`) and redis-server.
 */
import { startCluster } from './topology';

const cluster = await startCluster({
  env: process.env.RATE_LIMIT_MAX ? { RATE_LIMIT_MAX: process.env.RATE_LIMIT_MAX } : {},
});
console.log(`balancer: ${cluster.url}/propertyOnboard`);
for (const instance of cluster.instances) console.log(`instance: ${instance.url} (log ${instance.logFile})`);
console.log(`database: ${cluster.databaseUrl}`);
console.log('Ctrl-C stops every part and drops the database.');
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().then(() => process.exit(0));
  });
}
