import fp from 'fastify-plugin';
import { createAjv } from '../../../schemas/ajv';
import { listSchemaFiles } from '../../../schemas/tools/schema-files';

/**
 * Rewrites a schema for Fastify's serializer (fast-json-stringify) and @fastify/swagger:
 * relative `$ref`s ('../common.schema.json#/…') become the absolute ids they resolve to
 * ('common.schema.json#/…'), since those tools do not resolve refs against `$id`; `$schema` is dropped;
 * an object schema without `additionalProperties` gets `additionalProperties: true`, since
 * fast-json-stringify would otherwise drop every property it does not list (widget `contents`).
 */
export function forSerializer(id: string, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => forSerializer(id, n));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema') continue;
    if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) {
      const u = new URL(v, `http://schemas.local/${id}`);
      out[k] = u.pathname.slice(1) + u.hash;
    } else if (k === 'properties' || k === '$defs' || k === 'patternProperties') {
      out[k] = Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([name, s]) => [name, forSerializer(id, s)]),
      );
    } else {
      out[k] = forSerializer(id, v);
    }
  }
  const type = out.type;
  const isObject = type === 'object' || (Array.isArray(type) && type.includes('object'));
  if (isObject && out.additionalProperties === undefined && out.unevaluatedProperties === undefined) {
    out.additionalProperties = true;
  }
  return out;
}

/**
 * Registers every schema of schemas/ (incl. schemas/api) with Fastify under its `$id`, and validates
 * requests with the project's one ajv (draft 2020-12, `createAjv`) instead of Fastify's default draft-07
 * ajv. Route schemas refer to them as `{ $ref: 'api/request-otp.schema.json' }`.
 */
export default fp(
  async (app) => {
    const ajv = createAjv();
    ajv.addKeyword({ keyword: 'example' });
    app.setValidatorCompiler(({ schema }) => ajv.compile(schema));
    for (const f of listSchemaFiles()) {
      app.addSchema(forSerializer(f.id, f.schema) as { $id: string });
    }
  },
  { name: 'schemas' },
);
