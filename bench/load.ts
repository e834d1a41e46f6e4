import autocannon from 'autocannon';

/** Browsers send this; the answers are measured as a phone receives them (compressed when large). */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The middle value of `xs` (the upper one of an even count); NaN when empty. */
export const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** One load run: mean req/s, p99 latency (ms), and the count of non-2xx answers and errors. */
export interface LoadFigures {
  rps: number;
  p99: number;
  non2xx: number;
}

/**
 * requests/s and p99 latency of `url` with `connections` connections (autocannon; 1 s warm-up discarded, then
 * `duration` s), asked with {@link ACCEPT_ENCODING} and `headers`.
 */
export async function load(
  url: string,
  connections: number,
  headers: Record<string, string> = {},
  duration = 5,
): Promise<LoadFigures> {
  const opts = { url, connections, headers: { 'accept-encoding': ACCEPT_ENCODING, ...headers } };
  await autocannon({ ...opts, duration: 1 });
  const r = await autocannon({ ...opts, duration });
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
}

/** One side of {@link interleaved}: an address and the headers to ask it with (over {@link ACCEPT_ENCODING}). */
export interface LoadTarget {
  url: string;
  headers?: Record<string, string>;
}

/** What {@link interleaved} measured. */
export interface InterleavedFigures {
  /** `a`'s figures over all its slices: req/s of the whole, the highest p99 (ms) of a slice, the errors. */
  a: LoadFigures;
  /** The same for `b`. */
  b: LoadFigures;
  /** `b`'s answers ÷ `a`'s, over all slices (0 when `a` answered none). */
  ratio: number;
  /** The same ratio of each slice pair, in order. */
  sliceRatios: number[];
}

/**
 * The throughput of `b` as a share of `a`'s on a shared machine: after 1 s of warm-up each, `slices` pairs of
 * runs of `sliceS` s (a, then b), `connections` connections each, and the ratio of their answers counted over all
 * pairs. A machine whose speed drifts from one second to the next (bench/README.md, "Measuring a ratio on a
 * shared machine") then slows both sides alike; runs of 5 s each let one side meet a slow stretch alone.
 */
export async function interleaved(
  a: LoadTarget,
  b: LoadTarget,
  connections: number,
  { slices = 10, sliceS = 1 }: { slices?: number; sliceS?: number } = {},
): Promise<InterleavedFigures> {
  const run = (t: LoadTarget, duration: number) =>
    autocannon({
      url: t.url,
      connections,
      duration,
      headers: { 'accept-encoding': ACCEPT_ENCODING, ...t.headers },
    });
  await run(a, 1);
  await run(b, 1);
  const sums = { a: { n: 0, p99: 0, errors: 0 }, b: { n: 0, p99: 0, errors: 0 } };
  const sliceRatios: number[] = [];
  for (let i = 0; i < slices; i++) {
    const ra = await run(a, sliceS);
    const rb = await run(b, sliceS);
    for (const [sum, r] of [
      [sums.a, ra],
      [sums.b, rb],
    ] as const) {
      sum.n += r.requests.total;
      sum.p99 = Math.max(sum.p99, r.latency.p99);
      sum.errors += r.non2xx + r.errors;
    }
    sliceRatios.push(ra.requests.total > 0 ? rb.requests.total / ra.requests.total : 0);
  }
  const figures = (s: { n: number; p99: number; errors: number }): LoadFigures => ({
    rps: s.n / (slices * sliceS),
    p99: s.p99,
    non2xx: s.errors,
  });
  return {
    a: figures(sums.a),
    b: figures(sums.b),
    ratio: sums.a.n > 0 ? sums.b.n / sums.a.n : 0,
    sliceRatios,
  };
}
