import { Client } from 'undici';

/** What {@link runLoad} measured. */
export interface LoadResult {
  /** Requests answered, by status code. */
  statuses: Record<number, number>;
  /** Requests that got no answer (connection reset, refused, timeout), by error code. */
  failures: Record<string, number>;
  /** Answered requests per upstream named by the balancer's `X-Upstream` header. */
  upstreams: Record<string, number>;
  total: number;
  /** Answered requests per second over the run. */
  perSecond: number;
  /** Latency percentiles of answered requests, ms. */
  p50: number;
  p99: number;
  /** Time the run took, ms. */
  durationMs: number;
}

/** What {@link runLoad} sends. */
export interface LoadOptions {
  /** Base URL, e.g. the balancer `http://127.0.0.1:8080`. */
  url: string;
  path: string;
  headers?: Record<string, string>;
  /** Concurrent connections; connection i comes from {@link clientAddress}(addressOffset + i), a client of its own. */
  connections: number;
  /** First client number (default 0): runs in the same minute use distinct clients. */
  addressOffset?: number;
  durationMs: number;
  /** Called once, `atMs` after the start (e.g. to kill an instance during the load). */
  during?: { atMs: number; run: () => Promise<void> };
}

/** A loopback address of its own for client `i` (0-based): 127.0.1.1, 127.0.1.2, … (Linux routes 127/8). */
export function clientAddress(i: number): string {
  return `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
}

/**
 * Sends GET `path` in a loop on `connections` keep-alive connections for `durationMs` and counts the
 * answers. Every connection has a source address of its own, as separate owners behind the balancer
 * would, so the per-address rate limit (SPEC/issue 14: 300 a minute) applies per connection.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const statuses: Record<number, number> = {};
  const failures: Record<string, number> = {};
  const upstreams: Record<string, number> = {};
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + options.durationMs;
  const during = options.during
    ? new Promise<void>((done, fail) =>
        setTimeout(() => options.during!.run().then(done, fail), options.during!.atMs),
      )
    : Promise.resolve();
  const worker = async (i: number) => {
    const client = new Client(options.url, {
      localAddress: clientAddress((options.addressOffset ?? 0) + i),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    try {
      while (performance.now() < until) {
        const t0 = performance.now();
        try {
          const res = await client.request({ method: 'GET', path: options.path, headers: options.headers });
          await res.body.arrayBuffer();
          latencies.push(performance.now() - t0);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          const upstream = String(res.headers['x-upstream'] ?? '');
          upstreams[upstream] = (upstreams[upstream] ?? 0) + 1;
        } catch (err) {
          const code = (err as { code?: string }).code ?? (err as Error).name;
          failures[code] = (failures[code] ?? 0) + 1;
        }
      }
    } finally {
      await client.close().catch(() => undefined);
    }
  };
  await Promise.all([...Array.from({ length: options.connections }, (_, i) => worker(i)), during]);
  const durationMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return {
    statuses,
    failures,
    upstreams,
    total: latencies.length,
    perSecond: latencies.length / (durationMs / 1000),
    p50: pct(50),
    p99: pct(99),
    durationMs,
  };
}
