/**
 * Versions of the screen definitions in the database (issue 16 item 3): product staff upload a new version
 * of one screen's definition, publish it (to everyone, or with a rollout by feature flag or by a share of
 * owners) and roll back to any earlier version, without a deploy. Every change is recorded with who and when.
 *
 * This is a layer over the file catalogue (bff/screens/*.json, loaded by `loadScreenCatalogue`): the files
 * stay the baseline, version 0 ("deployed"), and a screen without a published version is served from its
 * file. An uploaded document goes through the composer's own checks — `definitionFromDocument` (the
 * definition schema) and `checkDefinitionAgainstContexts` (composition against every fixture context) —
 * as `npm run screens:check` does, plus every `$t` key it uses in every language.
 *
 * Instances: each keeps the releases in memory and, on a screen request, checks the database's change
 * counter (the highest id of `screen_audit`, one indexed read) when its last check is older than
 * `checkEveryMs` (SCREEN_VERSIONS_CHECK_MS, default 1000 ms; concurrent requests share one check). A publish
 * through any instance so reaches every other one within that time, with no restart, no timer while idle and
 * at most one small query a second per instance; the instance that published is current at once.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type {
  ScreenAuditList,
  ScreenDefinition,
  ScreenPayload,
  ScreenRelease,
  ScreenRollout,
  ScreenVersion,
  ScreenVersionList,
} from '../../schemas/generated/types';
import type { Database } from '../db';
import { onboardError } from '../errors';
import {
  checkDefinitionAgainstContexts,
  composeDefinition,
  definitionFromDocument,
  ScreenDefinitionError,
  type ScreenCatalogue,
  type ScreenContext,
  type Translate,
} from '../screens/composer';
import { flattenMessages, locales, translationAreas } from './translations';

/** One problem of a refused upload: the document, the JSON path in it ('' for the whole) and what is wrong. */
export interface DefinitionReason {
  file: string;
  path: string;
  detail: string;
}

/** What one screen request serves: one version of one screen, composed for the request's context. */
export interface ScreenPick {
  /** 0: the deployed file; 1, 2, …: an uploaded version. */
  version: number;
  /** Composes that version (never another: a composed screen never mixes versions). */
  compose(ctx: ScreenContext): ScreenPayload;
}

interface Release {
  version: number;
  previousVersion: number | null;
  percent: number | null;
  flag: string | null;
  updatedBy: string;
  updatedAt: Date;
}

/** What {@link createScreenVersions} needs. */
export interface ScreenVersionsOptions {
  db: Kysely<Database>;
  /** The file catalogue: version 0 of every screen, and which screens exist. */
  catalogue: ScreenCatalogue;
  translate: Translate;
  /** The fixture contexts uploads are composed against (bff/screens/fixtures/contexts), read on first upload. */
  contexts: () => Record<string, ScreenContext>;
  /** Folder of the locale files (renderer/i18n/locales): every `$t` key must be in each locale's own files. */
  localesDir: string;
  /** At most this often (ms) a screen request checks the database for changes (0: every request). */
  checkEveryMs: number;
  /** Whether the database can answer now; while not, requests are served from what is in memory. */
  databaseReady?: () => boolean;
  /** Clock in ms (tests). */
  now?: () => number;
  /** Told when a check of the database fails (the screens keep being served from memory). */
  onCheckError?: (err: unknown) => void;
  /** Told when a published version no longer passes the checks of this deploy (its file is served instead). */
  onInvalidVersion?: (err: ScreenDefinitionError) => void;
}

/** The service of {@link createScreenVersions}. */
export interface ScreenVersions {
  /**
   * Checks `document` as a new version of `screenId` and stores it (not published): version n+1.
   * @throws ONB_SCREEN_NOT_FOUND (no definition file of that id), ONB_SCREEN_DEFINITION_INVALID with
   *   `details.reasons` ({@link DefinitionReason}[]).
   */
  upload(screenId: string, document: unknown, author: string, note?: string): Promise<ScreenVersion>;
  /**
   * Makes `version` (0: the file) what owners get from their next load, to everyone or to a `rollout` (a
   * share of owners, stable per owner, or every request while a flag is on); everyone else keeps what they
   * had. @throws ONB_SCREEN_NOT_FOUND, ONB_SCREEN_VERSION_NOT_FOUND.
   */
  publish(screenId: string, version: number, author: string, rollout?: ScreenRollout): Promise<ScreenRelease>;
  /** Makes an earlier `version` (0: the file) what every owner gets, without rollout. Same errors as publish. */
  rollback(screenId: string, version: number, author: string): Promise<ScreenRelease>;
  /** The release and every version of a screen, newest first, 0 last. @throws ONB_SCREEN_NOT_FOUND */
  list(screenId: string): Promise<ScreenVersionList>;
  /** The release of every screen of the catalogue, by screen_id. */
  releases(): Promise<ScreenRelease[]>;
  /** The audit log, newest first: of one screen when given; at most `limit` (default 100) entries. */
  audit(opts: { screenId?: string; limit?: number }): Promise<ScreenAuditList>;
  /**
   * Brings the releases in memory up to date when the last check is older than `checkEveryMs` (see the
   * module's comment). Never throws: on a database error the screens are served as they were.
   */
  refresh(): Promise<void>;
  /**
   * Whether {@link refresh} would read the database now (its last check is older than `checkEveryMs` and the
   * database is ready): while it is not, what {@link pick} answers for a given screen, owner and flags changes
   * only with {@link revision}.
   */
  due(): boolean;
  /**
   * Names the releases in memory: changes whenever they change (the highest `screen_audit` id read last; ''
   * before the first read). Lets a caller keep what it made from a {@link pick} (routes/screens).
   */
  revision(): string;
  /**
   * The version of `screenId` this request gets (synchronous, from memory: call {@link refresh} first):
   * during a percentage rollout an owner is in it when `sha256(screen_id:user_id)` falls in the first
   * `percent` of 100 buckets (so stable per owner); a request without an owner is not. During a flag rollout,
   * every request while `flags[flag]` is true.
   */
  pick(screenId: string, ownerId: string | null, flags: Record<string, unknown>): ScreenPick;
}

/** Bucket 0–99 of an owner for a screen's percentage rollout: stable per (screen, owner), uniform. */
export function rolloutBucket(screenId: string, ownerId: string): number {
  return createHash('sha256').update(`${screenId}:${ownerId}`, 'utf8').digest().readUInt32BE(0) % 100;
}

/** The name of an uploaded version of `screenId` in the reasons of a refusal. */
const uploadedFile = (screenId: string) => `screens/${screenId}.json (uploaded)`;

/** Every `{"$t": "<literal key>"}` of a document with its JSON path. */
function literalKeys(value: unknown, path = ''): { key: string; path: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => literalKeys(v, `${path}/${i}`));
  if (!value || typeof value !== 'object') return [];
  const out: { key: string; path: string }[] = [];
  const obj = value as Record<string, unknown>;
  if (typeof obj.$t === 'string') out.push({ key: obj.$t, path });
  for (const [k, v] of Object.entries(obj)) out.push(...literalKeys(v, `${path}/${k}`));
  return out;
}

/** Each locale's own keys (`screens.a.b`), without the fallback to en-GB, read once. */
function localeKeySets(dir: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const locale of locales) {
    const keys = new Set<string>();
    for (const area of translationAreas) {
      const file = join(dir, locale, `${area}.json`);
      if (!existsSync(file)) continue;
      const tree = JSON.parse(readFileSync(file, 'utf8')) as Parameters<typeof flattenMessages>[0];
      for (const k of Object.keys(flattenMessages(tree))) keys.add(`${area}.${k}`);
    }
    out.set(locale, keys);
  }
  return out;
}

const toIso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** Creates the service (see the module's comment). */
export function createScreenVersions(opts: ScreenVersionsOptions): ScreenVersions {
  const { db, catalogue } = opts;
  const now = opts.now ?? Date.now;
  /** The releases in memory, replaced whole (a request reads one snapshot). */
  let releases = new Map<string, Release>();
  /** Definitions of stored versions, by `screen_id:version` (a stored version never changes). */
  const definitions = new Map<string, ScreenDefinition>();
  let counter: string | null = null;
  let checkedAt = -Infinity;
  let checking: Promise<void> | null = null;
  let keySets: Map<string, Set<string>> | null = null;
  let contexts: Record<string, ScreenContext> | null = null;

  const known = (screenId: string) => {
    if (!catalogue.has(screenId)) throw onboardError('ONB_SCREEN_NOT_FOUND');
  };

  /**
   * Reads the counter and, when it moved, every release and the definitions they name (each checked once
   * per instance, see `check`).
   */
  const reload = async () => {
    const row = await db
      .selectFrom('screen_audit')
      .select(sql<string | null>`max(id)::text`.as('latest'))
      .executeTakeFirst();
    const latest = row?.latest ?? '0';
    checkedAt = now();
    if (latest === counter) return;
    const rows = await db.selectFrom('screen_releases').selectAll().execute();
    const wanted = rows
      .flatMap((r) => [r.version, r.previous_version ?? 0].map((v) => ({ id: r.screen_id, v })))
      .filter(({ id, v }) => v > 0 && !definitions.has(`${id}:${v}`));
    for (const { id, v } of wanted) {
      const stored = await db
        .selectFrom('screen_versions')
        .select('definition')
        .where('screen_id', '=', id)
        .where('version', '=', v)
        .executeTakeFirst();
      if (!stored) continue;
      // Checked again against this deploy's schemas, fixtures and locales: a version stored under an
      // earlier deploy that no longer passes is not served (the file is, and the problem is logged).
      const { def, reasons } = check(id, stored.definition);
      if (!def) {
        opts.onInvalidVersion?.(
          new ScreenDefinitionError(
            uploadedFile(id),
            reasons[0]!.path,
            `version ${v}: ${reasons[0]!.detail}`,
          ),
        );
        continue;
      }
      definitions.set(`${id}:${v}`, def);
    }
    const next = new Map<string, Release>();
    for (const r of rows) {
      if (!catalogue.has(r.screen_id)) continue;
      next.set(r.screen_id, {
        version: r.version,
        previousVersion: r.previous_version,
        percent: r.rollout_percent,
        flag: r.rollout_flag,
        updatedBy: r.updated_by,
        updatedAt: new Date(r.updated_at),
      });
    }
    releases = next;
    counter = latest;
  };

  const due = () => now() - checkedAt >= opts.checkEveryMs && (!opts.databaseReady || opts.databaseReady());

  const releaseOf = (screenId: string, r: Release | undefined): ScreenRelease => ({
    screen_id: screenId,
    version: r?.version ?? 0,
    previous_version: r && (r.percent !== null || r.flag !== null) ? (r.previousVersion ?? 0) : null,
    rollout: r?.percent != null ? { percent: r.percent } : r?.flag != null ? { flag: r.flag } : null,
    updated_by: r?.updatedBy ?? null,
    updated_at: r ? r.updatedAt.toISOString() : null,
  });

  const versionExists = async (screenId: string, version: number) => {
    if (version === 0) return true;
    const row = await db
      .selectFrom('screen_versions')
      .select('version')
      .where('screen_id', '=', screenId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row !== undefined;
  };

  /** Writes the release and its audit entry in one transaction, then brings this instance up to date. */
  const release = async (
    screenId: string,
    action: 'publish' | 'rollback',
    version: number,
    author: string,
    rollout: ScreenRollout | undefined,
  ): Promise<ScreenRelease> => {
    known(screenId);
    if (!(await versionExists(screenId, version))) throw onboardError('ONB_SCREEN_VERSION_NOT_FOUND');
    await db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('screen_releases')
        .selectAll()
        .where('screen_id', '=', screenId)
        .forUpdate()
        .executeTakeFirst();
      // What everyone outside the rollout gets now: the released version, or during a rollout its previous.
      const everyone = !current
        ? 0
        : current.rollout_percent !== null || current.rollout_flag !== null
          ? (current.previous_version ?? 0)
          : current.version;
      const percent = rollout && 'percent' in rollout ? rollout.percent : null;
      const flag = rollout && 'flag' in rollout ? rollout.flag : null;
      const values = {
        version,
        previous_version: rollout ? everyone : null,
        rollout_percent: percent,
        rollout_flag: flag,
        updated_by: author,
        updated_at: new Date(now()),
      };
      await trx
        .insertInto('screen_releases')
        .values({ screen_id: screenId, ...values })
        .onConflict((oc) => oc.column('screen_id').doUpdateSet(values))
        .execute();
      await trx
        .insertInto('screen_audit')
        .values({
          screen_id: screenId,
          action,
          version,
          detail: JSON.stringify({
            previous_version: current ? current.version : 0,
            rollout: rollout ?? null,
          }),
          actor: author,
          at: new Date(now()),
        })
        .execute();
    });
    await reload();
    return releaseOf(screenId, releases.get(screenId));
  };

  /**
   * `document` as a version of `screenId`: the checked definition the composer serves (as
   * `definitionFromDocument` makes it from the document), or null with every problem found.
   */
  function check(
    screenId: string,
    document: unknown,
  ): { def: ScreenDefinition; reasons: [] } | { def: null; reasons: DefinitionReason[] } {
    const file = uploadedFile(screenId);
    const asReason = (err: unknown) => {
      if (err instanceof ScreenDefinitionError)
        return { def: null, reasons: [{ file, path: err.path, detail: err.detail }] };
      throw err;
    };
    let def: ScreenDefinition;
    try {
      def = definitionFromDocument(file, document, screenId);
    } catch (err) {
      return asReason(err);
    }
    // Whether a screen needs a session is part of the deployed code's security, not of its wording.
    if ((def.public === true) !== catalogue.isPublic(screenId)) {
      const detail = `must stay ${String(catalogue.isPublic(screenId))} as deployed`;
      return { def: null, reasons: [{ file, path: '/public', detail }] };
    }
    const used = new Set<string>();
    const recording: Translate = (locale, key, values) => {
      used.add(key);
      return opts.translate(locale, key, values);
    };
    contexts ??= opts.contexts();
    try {
      checkDefinitionAgainstContexts(file, def, contexts, recording);
    } catch (err) {
      return asReason(err);
    }
    // Every $t key in every language's own files (no fallback to English), as the locale files require.
    keySets ??= localeKeySets(opts.localesDir);
    const paths = new Map(literalKeys(document).map(({ key, path }) => [key, path]));
    const reasons: DefinitionReason[] = [];
    for (const key of [...used].sort()) {
      const missing = [...keySets].filter(([, keys]) => !keys.has(key)).map(([locale]) => locale);
      if (missing.length > 0)
        reasons.push({
          file,
          path: paths.get(key) ?? '',
          detail: `translation key '${key}' missing in ${missing.join(', ')}`,
        });
    }
    return reasons.length > 0 ? { def: null, reasons: reasons.slice(0, 50) } : { def, reasons: [] };
  }

  return {
    async upload(screenId, document, author, note) {
      known(screenId);
      const { def, reasons } = check(screenId, document);
      if (!def) throw onboardError('ONB_SCREEN_DEFINITION_INVALID', { details: { reasons } });
      // Two uploads at once may pick the same number: the primary key refuses the second, which tries again.
      for (let attempt = 0; ; attempt++) {
        try {
          return await db.transaction().execute(async (trx) => {
            const top = await trx
              .selectFrom('screen_versions')
              .select(sql<number | null>`max(version)`.as('top'))
              .where('screen_id', '=', screenId)
              .executeTakeFirst();
            const version = Number(top?.top ?? 0) + 1;
            const at = new Date(now());
            await trx
              .insertInto('screen_versions')
              .values({
                screen_id: screenId,
                version,
                definition: JSON.stringify(document),
                created_by: author,
                note: note ?? null,
                created_at: at,
              })
              .execute();
            await trx
              .insertInto('screen_audit')
              .values({
                screen_id: screenId,
                action: 'upload',
                version,
                detail: JSON.stringify({ note: note ?? null }),
                actor: author,
                at,
              })
              .execute();
            return {
              screen_id: screenId,
              version,
              created_by: author,
              created_at: at.toISOString(),
              note: note ?? null,
            };
          });
        } catch (err) {
          if (attempt >= 2 || (err as { code?: string }).code !== '23505') throw err;
        }
      }
    },

    publish: (screenId, version, author, rollout) => release(screenId, 'publish', version, author, rollout),
    rollback: (screenId, version, author) => release(screenId, 'rollback', version, author, undefined),

    async list(screenId) {
      known(screenId);
      await reload();
      const rows = await db
        .selectFrom('screen_versions')
        .select(['version', 'created_by', 'created_at', 'note'])
        .where('screen_id', '=', screenId)
        .orderBy('version', 'desc')
        .execute();
      return {
        release: releaseOf(screenId, releases.get(screenId)),
        versions: [
          ...rows.map((r) => ({
            screen_id: screenId,
            version: r.version,
            created_by: r.created_by,
            created_at: toIso(r.created_at),
            note: r.note,
          })),
          { screen_id: screenId, version: 0, created_by: null, created_at: null, note: 'deployed file' },
        ],
      };
    },

    async releases() {
      await reload();
      return catalogue.ids().map((id) => releaseOf(id, releases.get(id)));
    },

    async audit({ screenId, limit }) {
      let q = db
        .selectFrom('screen_audit')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(limit ?? 100);
      if (screenId) q = q.where('screen_id', '=', screenId);
      const rows = await q.execute();
      return {
        entries: rows.map((r) => ({
          id: Number(r.id),
          screen_id: r.screen_id,
          action: r.action as 'upload' | 'publish' | 'rollback',
          version: r.version,
          detail: r.detail as ScreenAuditList['entries'][number]['detail'],
          actor: r.actor,
          at: toIso(r.at),
        })),
      };
    },

    due,

    revision() {
      return counter ?? '';
    },

    refresh() {
      if (!due()) return Promise.resolve();
      checking ??= reload()
        .catch((err: unknown) => {
          checkedAt = now();
          opts.onCheckError?.(err);
        })
        .finally(() => {
          checking = null;
        });
      return checking;
    },

    pick(screenId, ownerId, flags) {
      const r = releases.get(screenId);
      let version = r?.version ?? 0;
      if (r && r.percent !== null) {
        const inRollout = ownerId !== null && rolloutBucket(screenId, ownerId) < r.percent;
        if (!inRollout) version = r.previousVersion ?? 0;
      } else if (r && r.flag !== null) {
        if (!flags[r.flag]) version = r.previousVersion ?? 0;
      }
      const def = version === 0 ? undefined : definitions.get(`${screenId}:${version}`);
      if (!def) return { version: 0, compose: (ctx) => catalogue.compose(screenId, ctx) };
      // Checked at upload against every fixture context: not re-validated per request (as the files).
      return {
        version,
        compose: (ctx) =>
          composeDefinition(uploadedFile(screenId), def, ctx, opts.translate, undefined, false),
      };
    },
  };
}
