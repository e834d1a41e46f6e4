import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { OWNER_ROLE } from './users';

/**
 * The journey steps of the funnel (issue 15 item 2), in order, and the server event that marks each
 * (recorded where the state changes: bff/plugins/app/analytics.ts). `sign_up` is the owner account's
 * creation (users.created_at).
 */
export const FUNNEL_STEPS = [
  { step: 'sign_up', event: null, task: null },
  { step: 'lead_created', event: 'lead_created', task: null },
  { step: 'task_basic_info', event: 'checklist_task_submitted', task: 'basic_info' },
  { step: 'task_address', event: 'checklist_task_submitted', task: 'address' },
  { step: 'task_contact_info', event: 'checklist_task_submitted', task: 'contact_info' },
  { step: 'task_amenities', event: 'checklist_task_submitted', task: 'amenities' },
  { step: 'task_room_categories', event: 'checklist_task_submitted', task: 'room_categories' },
  { step: 'photos', event: 'photo_uploaded', task: null },
  { step: 'kyc', event: 'checklist_task_submitted', task: 'kyc' },
  { step: 'contract', event: 'contract_accepted', task: null },
  { step: 'publish', event: 'publish_success', task: null },
] as const;

/** One step of the funnel. */
export interface FunnelStep {
  step: (typeof FUNNEL_STEPS)[number]['step'];
  /** Owners of the cohort who reached the step (at any time after signing up). */
  reached: number;
  /** reached / the cohort's size, 0–1 (0 for an empty cohort). */
  share: number;
  /** Median time from sign-up to the first time the step was reached, in seconds; null when none did. */
  median_s: number | null;
}

/** The funnel of the owners who signed up in [from, to). */
export interface Funnel {
  from: string;
  to: string;
  owners: number;
  steps: FunnelStep[];
}

/**
 * Where owners drop off (issue 15 item 2): the cohort is the owner accounts created in [`from`, `to`)
 * (ms since the epoch); for each step of {@link FUNNEL_STEPS}, how many of them reached it and the median
 * time from their sign-up to reaching it first. Reads users and analytics_events (server events).
 */
export async function computeFunnel(db: Kysely<Database>, from: number, to: number): Promise<Funnel> {
  const fromDate = new Date(from);
  const toDate = new Date(to);
  const stepOf = sql<string>`CASE
      WHEN e.event = 'checklist_task_submitted' THEN
        CASE WHEN e.properties->>'task' = 'kyc' THEN 'kyc' ELSE 'task_' || (e.properties->>'task') END
      WHEN e.event = 'lead_created' THEN 'lead_created'
      WHEN e.event = 'photo_uploaded' THEN 'photos'
      WHEN e.event = 'contract_accepted' THEN 'contract'
      WHEN e.event = 'publish_success' THEN 'publish'
    END`;
  const events = FUNNEL_STEPS.flatMap((s) => (s.event ? [s.event] : []));
  const result = await sql<{ step: string; reached: string | number; median_s: string | number | null }>`
    WITH cohort AS (
      SELECT id::text AS id, created_at FROM users
      WHERE devise_role = ${OWNER_ROLE} AND created_at >= ${fromDate} AND created_at < ${toDate}
    ),
    firsts AS (
      SELECT e.user_id, ${stepOf} AS step, min(e.occurred_at) AS at
      FROM analytics_events e JOIN cohort c ON c.id = e.user_id
      WHERE e.source = 'server' AND e.event IN (${sql.join(events)}) AND e.user_id IS NOT NULL
      GROUP BY e.user_id, 2
    )
    SELECT 'sign_up' AS step, count(*) AS reached, 0 AS median_s FROM cohort
    UNION ALL
    SELECT f.step, count(*) AS reached,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY greatest(0, extract(epoch FROM f.at - c.created_at))) AS median_s
    FROM firsts f JOIN cohort c ON c.id = f.user_id
    WHERE f.step IS NOT NULL
    GROUP BY f.step`.execute(db);
  const byStep = new Map(result.rows.map((r) => [r.step, r]));
  const owners = Number(byStep.get('sign_up')?.reached ?? 0);
  return {
    from: fromDate.toISOString(),
    to: toDate.toISOString(),
    owners,
    steps: FUNNEL_STEPS.map(({ step }) => {
      const row = byStep.get(step);
      const reached = Number(row?.reached ?? 0);
      return {
        step,
        reached,
        share: owners > 0 ? Math.round((reached / owners) * 1000) / 1000 : 0,
        median_s: row && row.median_s !== null && reached > 0 ? Math.round(Number(row.median_s)) : null,
      };
    }),
  };
}

/** A duration in seconds as a short text: '45 s', '12 min', '3.5 h', '2.1 d'. */
export function shortDuration(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} d`;
}

/** The funnel as text for a terminal: one line per step with a bar, the count, the share and the median. */
export function funnelText(funnel: Funnel, width = 40): string {
  const lines = [`Owners who signed up ${funnel.from} – ${funnel.to}: ${funnel.owners}`, ''];
  const label = Math.max(...funnel.steps.map((s) => s.step.length));
  for (const s of funnel.steps) {
    const bar = '█'.repeat(Math.round(s.share * width)).padEnd(width, '·');
    lines.push(
      `${s.step.padEnd(label)}  ${bar}  ${String(s.reached).padStart(6)}  ${`${Math.round(s.share * 100)}%`.padStart(4)}  median ${shortDuration(s.median_s)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
