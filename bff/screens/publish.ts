/**
 * `npm run screens:publish -- <command>`: the staff API of the screens' versions (issue 16 item 3) from a
 * terminal. It only calls the API of a running server (`SCREENS_API_URL`, default http://localhost:3000),
 * with the staff token of `SUPPORT_STAFF_TOKEN` (from the environment, never from the command line, so it
 * stays out of the shell's history). Commands:
 *
 *   upload <screen_id> [file] [--note text]   a new version (default file bff/screens/<screen_id>.json), with the
 *                                             fragments it uses (`$use`) put in place from bff/screens as they are
 *                                             there; refused with the reasons (file, JSON path) when it fails the checks
 *   publish <screen_id> <version> [--percent n | --flag name]
 *                                             owners get it from their next load (or a share of them, or while a flag is on)
 *   rollback <screen_id> <version>            back to an earlier version for everyone (0: the deployed file)
 *   list [screen_id]                          the published version of every screen, or one screen's versions
 *   audit [screen_id]                         who changed what and when, the newest first
 *
 * `--author` (else SCREENS_AUTHOR, else `git config user.email`, else the login name) is recorded with each
 * change. Exits 0 when the server accepted the command, 1 when it refused it (printing why), 2 on bad usage.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ScreenDefinitionError } from './definition-error';
import { expandFragments, fileFragments } from './fragments';

const BASE = '/hms_ms/api/v1/staff/screens';
const here = dirname(fileURLToPath(import.meta.url));

/** What the CLI talks to and writes to (tests pass their own). */
export interface CliIo {
  env: Record<string, string | undefined>;
  fetch: typeof fetch;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Folder of the definition files (default bff/screens). */
  screensDir?: string;
}

const USAGE = `usage: npm run screens:publish -- <command>
  upload <screen_id> [file] [--note text]
  publish <screen_id> <version> [--percent 1-99 | --flag name]
  rollback <screen_id> <version>
  list [screen_id]
  audit [screen_id]
options: --author who (else SCREENS_AUTHOR, git user.email, login name); --url (else SCREENS_API_URL)
environment: SUPPORT_STAFF_TOKEN (the staff token), SCREENS_API_URL (default http://localhost:3000)`;

function defaultAuthor(env: CliIo['env']): string {
  if (env.SCREENS_AUTHOR) return env.SCREENS_AUTHOR;
  try {
    const email = execFileSync('git', ['config', 'user.email'], { encoding: 'utf8' }).trim();
    if (email) return email;
  } catch {
    // No git, or no e-mail configured: fall back to the login name.
  }
  return env.USER ?? env.USERNAME ?? 'unknown';
}

/** Runs one command; resolves to the exit code (see the module's comment). */
export async function runScreensCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        note: { type: 'string' },
        percent: { type: 'string' },
        flag: { type: 'string' },
        author: { type: 'string' },
        url: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    io.err(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, screenId, third] = positionals;
  if (values.help || !command) {
    io.out(USAGE);
    return values.help ? 0 : 2;
  }
  const token = io.env.SUPPORT_STAFF_TOKEN;
  if (!token) {
    io.err('SUPPORT_STAFF_TOKEN is not set: export the staff token of the server first.');
    return 2;
  }
  const base = (values.url ?? io.env.SCREENS_API_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  const author = values.author ?? defaultAuthor(io.env);

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await io.fetch(`${base}${BASE}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json().catch(() => null)) as {
      success?: boolean;
      data?: Record<string, unknown>;
      error?: {
        code: string;
        message: string;
        details?: { reasons?: { file: string; path: string; detail: string }[] };
      };
    } | null;
    if (res.ok && json?.success) return json.data!;
    const error = json?.error;
    io.err(`refused (${res.status}${error ? ` ${error.code}` : ''}): ${error?.message ?? res.statusText}`);
    for (const r of error?.details?.reasons ?? [])
      io.err(`  ${r.file}${r.path ? ` at ${r.path}` : ''}: ${r.detail}`);
    return null;
  };
  const version = (text: string | undefined) =>
    text !== undefined && /^\d+$/.test(text) ? Number(text) : NaN;
  const needScreen = () => {
    if (screenId) return true;
    io.err(USAGE);
    return false;
  };

  switch (command) {
    case 'upload': {
      if (!needScreen()) return 2;
      const dir = io.screensDir ?? here;
      const file = third ?? join(dir, `${screenId}.json`);
      let definition: unknown;
      try {
        // The fragments it uses go up as they are in this folder, in place: a change to a fragment
        // (`task_details/contact_info.json`) is published with the screen, not only after a deploy.
        definition = expandFragments(file, JSON.parse(readFileSync(file, 'utf8')), fileFragments(dir)).value;
      } catch (e) {
        io.err(e instanceof ScreenDefinitionError ? e.message : `${file}: ${(e as Error).message}`);
        return 1;
      }
      const data = await call('POST', `/${screenId}/versions`, {
        author,
        definition,
        ...(values.note !== undefined ? { note: values.note } : {}),
      });
      if (!data) return 1;
      const v = data.version as { version: number };
      io.out(
        `uploaded ${screenId} version ${v.version} (not published: npm run screens:publish -- publish ${screenId} ${v.version})`,
      );
      return 0;
    }
    case 'publish':
    case 'rollback': {
      if (!needScreen()) return 2;
      const v = version(third);
      if (Number.isNaN(v)) {
        io.err(`${command} needs a version number (0: the deployed file)\n${USAGE}`);
        return 2;
      }
      let rollout: Record<string, unknown> | undefined;
      if (command === 'publish' && values.percent !== undefined)
        rollout = { percent: Number(values.percent) };
      if (command === 'publish' && values.flag !== undefined) rollout = { flag: values.flag };
      const data = await call('POST', `/${screenId}/${command}`, {
        author,
        version: v,
        ...(rollout ? { rollout } : {}),
      });
      if (!data) return 1;
      const r = data.release as {
        version: number;
        rollout: Record<string, unknown> | null;
        previous_version: number | null;
      };
      const scope = r.rollout
        ? ` to ${'percent' in r.rollout ? `${String(r.rollout.percent)} % of owners` : `requests with flag ${String(r.rollout.flag)}`} (others keep version ${String(r.previous_version)})`
        : ' to every owner';
      io.out(`${screenId}: version ${r.version} ${command === 'publish' ? 'published' : 'restored'}${scope}`);
      return 0;
    }
    case 'list': {
      if (!screenId) {
        const data = await call('GET', '');
        if (!data) return 1;
        for (const r of data.screens as { screen_id: string; version: number; rollout: unknown }[])
          io.out(
            `${r.screen_id}\tversion ${r.version}${r.rollout ? `\trollout ${JSON.stringify(r.rollout)}` : ''}`,
          );
        return 0;
      }
      const data = await call('GET', `/${screenId}/versions`);
      if (!data) return 1;
      const release = data.release as { version: number };
      for (const v of data.versions as {
        version: number;
        created_by: string | null;
        created_at: string | null;
        note: string | null;
      }[])
        io.out(
          `${v.version === release.version ? '*' : ' '} ${v.version}\t${v.created_at ?? 'deployed'}\t${v.created_by ?? ''}\t${v.note ?? ''}`,
        );
      return 0;
    }
    case 'audit': {
      const data = await call('GET', `/audit${screenId ? `?screen_id=${encodeURIComponent(screenId)}` : ''}`);
      if (!data) return 1;
      for (const e of data.entries as {
        at: string;
        actor: string;
        action: string;
        screen_id: string;
        version: number;
      }[])
        io.out(`${e.at}\t${e.actor}\t${e.action}\t${e.screen_id}\tversion ${e.version}`);
      return 0;
    }
    default:
      io.err(`unknown command '${command}'\n${USAGE}`);
      return 2;
  }
}

// Run as a script (npm run screens:publish), not when imported by a test.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runScreensCli(process.argv.slice(2), {
    env: process.env,
    fetch,
    out: (l) => console.log(l),
    err: (l) => console.error(l),
  }).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
