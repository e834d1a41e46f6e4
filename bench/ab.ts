/**
 * `npm run bench:ab -- <server folder A> [<server folder B>]`: the throughput of one API address on two builds of
 * the BFF, measured in interleaved runs (A, B, A, B…) so that both see the same moments of a shared machine,
 * whose speed moves by ±15 % from one run to the next (bench/README.md). B defaults to `dist/server` (this
 * checkout's `npm run build`); A is another build's `dist/server`, e.g. of a worktree:
 * `git worktree add ../onboard-a <commit> && (cd ../onboard-a && npm ci && npm run build)`, then
 * `npm run bench:ab -- ../onboard-a/dist/server`.
 *
 * Options: `--path=` the address (default `/hms_ms/api/v1/screens/sign_up`, signed out, as the main bench asks
 * for it: `Accept-Encoding: gzip, deflate, br`), `--pairs=` (6), `--connections=` (50), `--seconds=` per run (5,
 * after 1 s of warm-up), `--signed-in` (each server's requests carry the session of an owner with a property, as the
 * main bench asks for the checklist: `--signed-in --path=/hms_ms/api/v1/screens/task --connections=10`). Prints
 * each pair and the medians; B/A above 1 means B answers more.
 * Both servers run as `npm run serve` runs them, without the rate limit and load shedding, each on an empty data
 * folder, on `BENCH_PORT` + 10 and + 11 (3309, 3310).
 */
import { load, median } from './load';
import { signedInOwner } from './owner';
import { startServer, type BenchServer } from './server';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const folders = args.filter((a) => !a.startsWith('--'));
if (folders.length < 1 || folders.length > 2) {
  console.error('usage: npm run bench:ab -- <server folder A> [<server folder B> (default dist/server)]');
  process.exit(2);
}
const [folderA, folderB = 'dist/server'] = folders as [string, string?];
const path = option('path', '/hms_ms/api/v1/screens/sign_up');
const pairs = Number(option('pairs', '6'));
const connections = Number(option('connections', '50'));
const seconds = Number(option('seconds', '5'));
const signedIn = args.includes('--signed-in');
const port = Number(process.env.BENCH_PORT ?? 3299) + 10;

/** Mean req/s of one run against `server` (with `cookie`, if any); non-2xx answers are counted. */
async function run(server: BenchServer, cookie?: string): Promise<{ rps: number; non2xx: number }> {
  return load(`${server.url}${path}`, connections, cookie ? { cookie } : {}, seconds);
}

const env = { RATE_LIMIT_MAX: '0', PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' };
const a = await startServer(port, { serverDir: folderA, env });
const b = await startServer(port + 1, { serverDir: folderB, env });
const rows: { a: number; b: number }[] = [];
let errors = 0;
try {
  const cookieA = signedIn ? (await signedInOwner(a.url)).cookie : undefined;
  const cookieB = signedIn ? (await signedInOwner(b.url)).cookie : undefined;
  console.log(
    `A ${folderA}\nB ${folderB}\n${path}${signedIn ? ' (signed in)' : ''}, ${connections} connections, ${seconds} s per run`,
  );
  for (let i = 0; i < pairs; i++) {
    const ra = await run(a, cookieA);
    const rb = await run(b, cookieB);
    errors += ra.non2xx + rb.non2xx;
    rows.push({ a: ra.rps, b: rb.rps });
    console.log(`pair ${i + 1}: A ${ra.rps.toFixed(0)} req/s, B ${rb.rps.toFixed(0)} req/s`);
  }
} finally {
  await a.stop();
  await b.stop();
}
const ma = median(rows.map((r) => r.a));
const mb = median(rows.map((r) => r.b));
const ratio = median(rows.map((r) => (r.a > 0 ? r.b / r.a : NaN)));
console.log(
  `median: A ${ma.toFixed(0)} req/s, B ${mb.toFixed(0)} req/s; B/A per pair, median ${ratio.toFixed(3)}` +
    (errors ? `; ${errors} non-2xx answers or errors` : ''),
);
