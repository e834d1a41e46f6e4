import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  anyJson,
  arbitraryFor,
  componentResolver,
  edgeStrings,
  type JsonSchema,
  type RefResolver,
} from './test-support/schema-arbitrary';
import {
  buildTestApp,
  createTestLead,
  multipartBody,
  signInNewOwner,
  type MultipartPart,
} from './test-helpers';

/**
 * A fuzzer over the OpenAPI document (issue 14 item 7): every operation of `GET /hms_ms/api/openapi.json`
 * gets requests built from its own schemas — valid, boundary and invalid bodies, path and query parameters
 * and headers — signed out, signed in as an owner, with a forged cookie, or with the staff token. No answer
 * may be a 5xx (the guide: the server never answers 500 for input it was given), every 4xx is in the
 * error shape of the API (`{ success: false, error: { code, message } }`, SPEC §7), and every answer keeps to
 * the document: its status is one the operation documents, and a JSON body validates against the schema
 * documented for that status ({@link undocumented}), as a client generated from the document expects.
 *
 * FUZZ_RUNS requests (default 1000, as CI runs it; `FUZZ_RUNS=10000 npx vitest run bff/openapi-fuzz.test.ts`
 * for the full count) from the fixed seed FUZZ_SEED (default below); fast-check prints the seed and the
 * failing request's path on failure, so a failure replays with the same two values.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const STAFF_TOKEN = 'fuzz-staff-token-0123456789';

interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  body?: { kind: 'json' | 'multipart'; schema: JsonSchema; required: boolean };
}

interface FuzzRequest {
  op: Operation;
  pathValues: Record<string, string>;
  query: Record<string, string | undefined>;
  headers: Record<string, string | undefined>;
  auth: 'none' | 'owner' | 'forged' | 'staff';
  body:
    | { kind: 'none' }
    | { kind: 'json'; value: unknown }
    | { kind: 'raw'; text: string }
    | { kind: 'multipart'; parts: MultipartPart[] };
}

/** The document's `responses` of each path and method, as served. */
type DocumentedResponses = Record<
  string,
  Record<
    string,
    {
      security?: Record<string, unknown>[];
      responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
    }
  >
>;

/** The served document, added to {@link ajv} under this id, so a response schema is compiled by its pointer. */
const DOCUMENT_ID = 'https://openapi.invalid/openapi.json';
const ajv = new Ajv2020({ strict: false, logger: false });
addFormats(ajv);
/** A JSON Pointer token (RFC 6901). */
const pointerToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

const documentValidators = new Map<string, ReturnType<typeof ajv.compile>>();

/**
 * The validator of the JSON schema at `path` in the served document (a request body's or a response's:
 * `path` leads to the object whose `content` lists `application/json`), compiled once.
 */
function documentValidator(path: string[]): ReturnType<typeof ajv.compile> {
  const pointer = [...path, 'content', 'application/json', 'schema'].map(pointerToken).join('/');
  let validate = documentValidators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer}` });
    documentValidators.set(pointer, validate);
  }
  return validate;
}
let documented: DocumentedResponses = {};

/**
 * What in an answer of `op` the document does not say: a status it does not list for the operation (nor as
 * `4XX` / `default`), a content type other than those listed for its status, or a JSON body that does not
 * validate against the schema listed for its status (ajv's first errors); null when the answer keeps to the
 * document.
 */
function undocumented(
  op: Operation,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
) {
  const responses = documented[op.path]?.[op.method.toLowerCase()]?.responses ?? {};
  const status = String(res.statusCode);
  const key = [status, `${status[0]}XX`, 'default'].find((k) => responses[k]);
  if (!key) return `status ${status} is not documented (${Object.keys(responses).join(', ')})`;
  const type = String(res.headers['content-type'] ?? '')
    .split(';', 1)[0]!
    .trim()
    .toLowerCase();
  const content = responses[key]!.content;
  if (content && type && !(type in content)) {
    return `a ${type} body where status ${key} documents ${Object.keys(content).join(', ')}`;
  }
  if (type !== 'application/json') return null;
  const schema = content?.['application/json']?.schema;
  if (!schema)
    return `a JSON body where status ${key} documents ${Object.keys(responses[key]!.content ?? {}).join(', ') || 'none'}`;
  const validate = documentValidator(['paths', op.path, op.method.toLowerCase(), 'responses', key]);
  return validate(JSON.parse(res.body))
    ? null
    : `the body does not match status ${key}'s schema: ${ajv.errorsText(validate.errors)}`;
}

/**
 * Why a 2xx answer of `req` should have been a refusal: its JSON body (sent, or required and missing) does
 * not keep to the operation's documented request schema, yet it was accepted. Null when the body is valid,
 * or when the operation takes no JSON body.
 */
function acceptedInvalidBody(req: FuzzRequest, status: number): string | null {
  const { op } = req;
  if (status >= 300 || op.body?.kind !== 'json') return null;
  let value: unknown;
  if (req.body.kind === 'none') return op.body.required ? 'accepted without its required body' : null;
  if (req.body.kind === 'json') value = req.body.value;
  else if (req.body.kind === 'raw') {
    try {
      value = JSON.parse(req.body.text);
    } catch {
      return 'accepted a body that is not JSON';
    }
  } else return null;
  if (value === undefined) return null;
  const validate = documentValidator(['paths', op.path, op.method.toLowerCase(), 'requestBody']);
  return validate(value) ? null : `accepted a body the document refuses: ${ajv.errorsText(validate.errors)}`;
}

/**
 * Where an answer to a request without a session disagrees with the operation's documented `security`: a 2xx
 * where every alternative names a scheme (the `session` cookie or the staff token), or 401 ONB_UNAUTHORIZED
 * (the session gate) where the document names no scheme at all (an operation whose session is optional,
 * `[{}, { session: [] }]`, may still need it for some bodies, e.g. linking a social account). Null otherwise.
 */
function disagreesWithSecurity(req: FuzzRequest, res: { statusCode: number; body: string }): string | null {
  if (req.auth !== 'none' && req.auth !== 'forged') return null;
  const security = documented[req.op.path]?.[req.op.method.toLowerCase()]?.security ?? [];
  const open = security.length === 0 || security.some((alternative) => Object.keys(alternative).length === 0);
  if (!open && res.statusCode < 300) return 'answered without the credentials its security names';
  if (security.length === 0 && res.statusCode === 401 && res.body.includes('"ONB_UNAUTHORIZED"')) {
    return 'asks for a session its security does not name';
  }
  return null;
}

let app: FastifyInstance;
let operations: Operation[];
let resolve: RefResolver;
const owner = { cookie: '', leadId: '' };

async function freshOwner(): Promise<void> {
  owner.cookie = await signInNewOwner(app);
  owner.leadId = (await createTestLead(app, owner.cookie)).property_unique_id;
}

beforeAll(async () => {
  app = await buildTestApp({ config: { rateLimitMax: 0, supportStaffToken: STAFF_TOKEN } });
  const doc = (await app.inject('/hms_ms/api/openapi.json')).json<{
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components?: { schemas?: Record<string, JsonSchema> };
  }>();
  resolve = componentResolver(doc);
  documented = doc.paths as DocumentedResponses;
  ajv.addSchema({ ...doc, $id: DOCUMENT_ID });
  operations = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        operationId: string;
        tags?: string[];
        parameters?: Operation['parameters'];
        requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
        responses?: Record<string, { content?: Record<string, unknown> }>;
      };
      // Development-only routes, and the support chat's event stream (an answer that never ends by design).
      if (op.tags?.includes('dev')) continue;
      if (Object.values(op.responses ?? {}).some((r) => r.content && 'text/event-stream' in r.content))
        continue;
      const json = op.requestBody?.content['application/json'];
      const multipart = op.requestBody?.content['multipart/form-data'];
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        parameters: op.parameters ?? [],
        ...(json
          ? {
              body: {
                kind: 'json' as const,
                schema: json.schema,
                required: op.requestBody?.required === true,
              },
            }
          : multipart
            ? {
                body: {
                  kind: 'multipart' as const,
                  schema: multipart.schema,
                  required: op.requestBody?.required === true,
                },
              }
            : {}),
      });
    }
  }
  await freshOwner();
}, 120_000);

const screenIds = readdirSync(join(import.meta.dirname, 'screens'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

/** Printable ASCII: what an HTTP header value may carry. */
const headerText = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);

function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function requestFor(op: Operation): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const pathValues = fc.record(
    Object.fromEntries(
      pathParams.map((p) => [
        p.name,
        fc.oneof(
          { weight: 3, arbitrary: fc.constant('$lead') },
          { weight: 2, arbitrary: fc.constantFrom(...screenIds) },
          { weight: 3, arbitrary: arbitraryFor(p.schema, resolve).map(asText) },
          { weight: 1, arbitrary: fc.uuid() },
          { weight: 1, arbitrary: edgeStrings },
        ),
      ]),
    ) as Record<string, fc.Arbitrary<string>>,
  );
  const query = fc.record(
    Object.fromEntries(
      op.parameters
        .filter((p) => p.in === 'query')
        .map((p) => [p.name, arbitraryFor(p.schema, resolve).map(asText)]),
    ) as Record<string, fc.Arbitrary<string>>,
    { requiredKeys: [] },
  );
  const headers = fc.record(
    {
      httpxoyolang: fc.oneof(fc.constantFrom('ar', 'en-GB', 'hi', 'zh', 'xx'), headerText),
      user_url_country: fc.oneof(fc.constantFrom('IN', 'ID', 'TH', 'ZZ'), headerText),
      'x-qid': headerText,
      'accept-language': headerText,
      'idempotency-key': headerText,
      // Conditional GETs (kept answers, stored files): `*` matches any current tag (RFC 9110 §13.1.2).
      'if-none-match': fc.constantFrom('*', '"not-the-tag"', 'W/"x", *'),
    },
    { requiredKeys: [] },
  );
  let body: fc.Arbitrary<FuzzRequest['body']> = fc.oneof(
    { weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 1, arbitrary: anyJson.map((value) => ({ kind: 'json' as const, value })) },
  );
  if (op.body?.kind === 'json') {
    body = fc.oneof(
      {
        weight: 8,
        arbitrary: arbitraryFor(op.body.schema, resolve).map((value) => ({ kind: 'json' as const, value })),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
      {
        weight: 1,
        arbitrary: fc
          .oneof(
            fc.constantFrom('{', '{"a":', 'not json', '[]', '""', 'null', '{"__proto__":{"x":1}}'),
            fc.string(),
          )
          .map((text) => ({ kind: 'raw' as const, text })),
      },
    );
  } else if (op.body?.kind === 'multipart') {
    const schema = op.body.schema.$ref ? resolve(op.body.schema.$ref) : op.body.schema;
    const names = Object.keys(schema.properties ?? {});
    const part: fc.Arbitrary<MultipartPart> = fc.oneof(
      fc.record({
        name: fc.constantFrom(...names, 'file', 'other'),
        filename: fc.constantFrom('photo.jpg', 'x.pdf', '', '../../x.png', 'a'.repeat(300)),
        type: fc.constantFrom(
          'image/jpeg',
          'image/png',
          'application/pdf',
          'text/plain',
          'application/octet-stream',
        ),
        data: fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
      }),
      fc.record({
        name: fc.constantFrom(...names, 'other'),
        value: fc.oneof(
          fc.string({ maxLength: 60 }),
          edgeStrings.filter((s) => s.length < 400),
        ),
      }),
    );
    body = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.array(part, { maxLength: 4 }).map((parts) => ({ kind: 'multipart' as const, parts })),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
      { weight: 1, arbitrary: fc.string().map((text) => ({ kind: 'raw' as const, text })) },
    );
  }
  return fc.record({
    op: fc.constant(op),
    pathValues,
    query,
    headers,
    auth: fc.constantFrom(
      'none' as const,
      'owner' as const,
      'owner' as const,
      'forged' as const,
      'staff' as const,
    ),
    body,
  });
}

function injectOptions(req: FuzzRequest): InjectOptions {
  const url = req.op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = req.pathValues[name] ?? '';
    try {
      return encodeURIComponent(value === '$lead' ? owner.leadId : value);
    } catch {
      // A lone surrogate cannot be encoded: send the bytes of one (invalid UTF-8) instead.
      return '%ED%A0%80';
    }
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = value;
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) if (value !== undefined) query[name] = value;
  if (req.auth === 'owner') headers.cookie = owner.cookie;
  if (req.auth === 'forged') headers.cookie = 'onboard_sid=forged-session-id-that-does-not-exist';
  if (req.auth === 'staff') headers.authorization = `Bearer ${STAFF_TOKEN}`;
  const options: InjectOptions = { method: req.op.method as InjectOptions['method'], url, query, headers };
  if (req.body.kind === 'json' && req.body.value !== undefined) {
    options.payload = JSON.stringify(req.body.value);
    headers['content-type'] = 'application/json';
  } else if (req.body.kind === 'raw') {
    options.payload = req.body.text;
    headers['content-type'] =
      req.op.body?.kind === 'multipart' ? 'multipart/form-data; boundary=x' : 'application/json';
  } else if (req.body.kind === 'multipart') {
    const { payload, contentType } = multipartBody(req.body.parts);
    options.payload = payload;
    headers['content-type'] = contentType;
  }
  return options;
}

/** Operations after which the owner's session or lead may be gone; a new one is made for the next runs. */
const ENDS_SESSION_OR_LEAD =
  /sign_out|password|switch_profile|verify_otp|sign_in|social|sso|truecaller|remove|reactivate|onboard\/leads\/\{property_unique_id\}$/;

describe('OpenAPI fuzzer (issue 14 item 7)', () => {
  it('answers 405 with Allow to a method the document does not list for a path', async () => {
    const listed = new Map<string, Set<string>>();
    for (const op of operations) listed.set(op.path, (listed.get(op.path) ?? new Set()).add(op.method));
    const refused: string[] = [];
    for (const [path, methods] of listed) {
      const url = path.replace(/\{[^}]+\}/g, 'x1');
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        // A GET under the app's base path is a page of the client (index.html), whatever routes the path has.
        if (methods.has(method) || (method === 'GET' && path.startsWith('/propertyOnboard/'))) continue;
        const res = await app.inject({ method, url, headers: { cookie: owner.cookie } });
        if (res.statusCode !== 405)
          refused.push(`${method} ${url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        else {
          const allow = String(res.headers.allow).split(', ');
          for (const m of methods)
            if (!allow.includes(m)) refused.push(`${method} ${url}: Allow ${res.headers.allow} lacks ${m}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });

  it(`answers ${RUNS} schema-derived requests over every operation without a 5xx, every 4xx in the API's error shape, every answer as documented`, async () => {
    const exercised = new Set<string>();
    const statuses = new Map<number, number>();
    const request = fc
      .integer({ min: 0, max: operations.length - 1 })
      .chain((i) => requestFor(operations[i]!));
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const options = injectOptions(req);
        const res = await app.inject(options);
        exercised.add(`${req.op.method} ${req.op.path}`);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (req.op.method !== 'GET' && ENDS_SESSION_OR_LEAD.test(req.op.path)) await freshOwner();
        const what = `${options.method} ${String(options.url).slice(0, 200)} (${req.auth}) → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, what).toBeLessThan(500);
        // An empty path value names another route (`/leads/` is the list: trailing slashes are ignored), whose
        // answer is not this operation's.
        if (Object.values(req.pathValues).every((v) => v !== ''))
          expect(undocumented(req.op, res), what).toBeNull();
        expect(acceptedInvalidBody(req, res.statusCode), what).toBeNull();
        expect(disagreesWithSecurity(req, res), what).toBeNull();
        if (res.statusCode >= 400) {
          expect(String(res.headers['content-type']), what).toMatch(/^application\/json/);
          const body = res.json<{ success: unknown; error?: { code?: unknown; message?: unknown } }>();
          expect(body.success, what).toBe(false);
          expect(typeof body.error?.code, what).toBe('string');
          expect(typeof body.error?.message, what).toBe('string');
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // Every operation was tried at least once (a fuzzer that skips routes proves nothing about them).
    if (RUNS >= 10 * operations.length) {
      const missed = operations.map((op) => `${op.method} ${op.path}`).filter((key) => !exercised.has(key));
      expect(missed).toEqual([]);
    }
    console.info(
      `fuzzer: ${RUNS} requests, seed ${SEED}, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 900_000);
});
