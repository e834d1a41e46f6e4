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
