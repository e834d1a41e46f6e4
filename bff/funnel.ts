/**
 * `npm run funnel` (issue 15 item 2): where owners drop off, in a terminal. Prints, for the owners who
 * signed up in the last `--days N` days (default 30), each journey step with a bar, how many reached it,
 * the share and the median time from sign-up (bff/services/funnel.ts).
 *
 * By default it reads the configured database (DATABASE_URL, else PGlite under DATA_DIR: stop a server
 * that uses the same PGlite folder first, PGlite takes one process). With `--url <BFF origin>` it asks a
 * running BFF instead (GET /hms_ms/api/v1/staff/funnel with SUPPORT_STAFF_TOKEN). `--json` prints JSON.
 */
import { parseArgs } from 'node:util';
import type { FunnelResult } from '../schemas/generated/types';
import { loadConfig } from './config';
import { connectDatabase, targetFromConfig } from './db';
import { computeFunnel, funnelText, type Funnel } from './services/funnel';

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '30' },
    url: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const days = Number(values.days);
if (!Number.isInteger(days) || days < 1 || days > 366) {
  console.error('--days must be a whole number from 1 to 366');
  process.exit(2);
}

const config = loadConfig();

async function fromServer(base: string): Promise<Funnel> {
  const token = config.supportStaffToken;
  if (!token) throw new Error('SUPPORT_STAFF_TOKEN is not set');
  const res = await fetch(new URL(`/hms_ms/api/v1/staff/funnel?days=${days}`, base), {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`the BFF answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: FunnelResult }).data;
}

async function fromDatabase(): Promise<Funnel> {
  const handle = connectDatabase(targetFromConfig(config), {
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    queryTimeoutMs: config.databaseQueryTimeoutMs,
  });
  try {
    await handle.opened;
    await handle.migrate?.();
    const to = Date.now();
    return await computeFunnel(handle.db, to - days * 24 * 3600_000, to);
  } finally {
    await handle.close();
  }
}

try {
  const funnel = values.url ? await fromServer(values.url) : await fromDatabase();
  process.stdout.write(values.json ? `${JSON.stringify(funnel, null, 2)}\n` : funnelText(funnel));
} catch (err) {
  console.error('funnel failed:', err instanceof Error ? err.message : err);
  process.exit(1);
}
