/**
 * `npm run bench:ab -- <server folder A> [<server folder B>]`: the throughput of one API address on two builds of
 * the BFF, measured in interleaved runs (A, B, A, B…) so that both see the same moments of a shared machine,
 * whose speed moves by ±15 % from one run to the next (bench/README.md). B defaults to `dist/server` (this
 * checkout's `npm run build`); A is another build's `dist/server`, e.g. of a worktree:
 * `git worktree add ../onboard-a <commit> && (cd ../onboard-a && npm ci && npm run build)`, then
 * `npm run bench:ab -- ../onboard-a/dist/server`.
 *
 * Options: `--path=` the address (default `/hms_ms/api/v1/screens/sign_up`, signed out, as the main bench asks
 * for it: `Accept-Encoding: gzip, deflate, br`), `--rounds=` (3), `--slices=` pairs of runs per round (10),
 * `--connections=` (50), `--seconds=` per run (1, after 1 s of warm-up each), `--signed-in` (each server's requests
 * carry the session of an owner with a property, as the main bench asks for the checklist: `--signed-in
 * --path=/hms_ms/api/v1/screens/task --connections=10`). Each round is `interleaved` (bench/load.ts): A and B in
 * alternating runs, B/A of the answers counted over the round. Prints each round, its lowest and highest single
 * pair, and the median of the rounds; B/A above 1 means B answers more.
 * Both servers run as `npm run serve` runs them, without the rate limit and load shedding, each on an empty data
 * folder, on `BENCH_PORT` + 10 and + 11 (3309, 3310).
 */
import { interleaved, median, type LoadTarget } from './load';
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
const rounds = Number(option('rounds', '3'));
const slices = Number(option('slices', '10'));
const connections = Number(option('connections', '50'));
const seconds = Number(option('seconds', '1'));
const signedIn = args.includes('--signed-in');
const port = Number(process.env.BENCH_PORT ?? 3299) + 10;

const env = { RATE_LIMIT_MAX: '0', PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' };
const a = await startServer(port, { serverDir: folderA, env });
const b = await startServer(port + 1, { serverDir: folderB, env });
const rows: { a: number; b: number; ratio: number }[] = [];
let errors = 0;
try {
  const target = async (server: BenchServer): Promise<LoadTarget> => ({
    url: `${server.url}${path}`,
    headers: signedIn ? { cookie: (await signedInOwner(server.url)).cookie } : {},
  });
  const targetA = await target(a);
  const targetB = await target(b);
  console.log(
    `A ${folderA}\nB ${folderB}\n${path}${signedIn ? ' (signed in)' : ''}, ${connections} connections, ${rounds} rounds of ${slices} pairs of ${seconds}-s runs`,
  );
  for (let i = 0; i < rounds; i++) {
    const m = await interleaved(targetA, targetB, connections, { slices, sliceS: seconds });
    errors += m.a.non2xx + m.b.non2xx;
    rows.push({ a: m.a.rps, b: m.b.rps, ratio: m.ratio });
    const single = `single pairs ${Math.min(...m.sliceRatios).toFixed(2)}–${Math.max(...m.sliceRatios).toFixed(2)}`;
    console.log(
      `round ${i + 1}: A ${m.a.rps.toFixed(0)} req/s, B ${m.b.rps.toFixed(0)} req/s, B/A ${m.ratio.toFixed(3)} (${single})`,
    );
  }
} finally {
  await a.stop();
  await b.stop();
}
console.log(
  `median: A ${median(rows.map((r) => r.a)).toFixed(0)} req/s, B ${median(rows.map((r) => r.b)).toFixed(0)} req/s; ` +
    `B/A of the rounds, median ${median(rows.map((r) => r.ratio)).toFixed(3)}` +
    (errors ? `; ${errors} non-2xx answers or errors` : ''),
);
