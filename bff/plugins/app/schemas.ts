import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaValidationError, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { sharedAjv } from '../../../schemas/ajv';
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

/** A request validator as Fastify calls it: true/false, with ajv's `errors` after a false. */
interface LazyValidator {
  (data: unknown): boolean;
  errors?: FastifySchemaValidationError[] | null;
}

/**
 * A validator that compiles `schema` with `compile` on its first call, not when the route is registered
 * (issue 13 item 5: compiling every route's schemas cost ≈1–2 s of CPU at start, for routes a server may
 * never see). Copies the compiled function's `errors` after each call, as Fastify reads them from it.
 */
export function lazyValidator(compile: () => LazyValidator): LazyValidator {
  let compiled: LazyValidator | undefined;
  const validate: LazyValidator = (data) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
}

/**
 * Fastify's response serializer factory (fast-json-stringify, as by default), building each route's
 * serializer on its first use instead of at start (issue 13 item 5: building them all, each checking its
 * schema and resolving the shared ones, cost ≈3 s of CPU). Pass as
 * `Fastify({ schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } } })`.
 */
export const lazySerializerFactory: NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
> = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc: unknown) => (serialize ??= build(route))(doc);
  };
};

/**
 * Registers every schema of schemas/ (incl. schemas/api) with Fastify under its `$id`, and validates
 * requests with the project's one ajv (draft 2020-12, `sharedAjv`) instead of Fastify's default draft-07
 * ajv. Route schemas refer to them as `{ $ref: 'api/request-otp.schema.json' }`. Each route's validator is
 * compiled on its first request ({@link lazyValidator}).
 */
export default fp(
  async (app) => {
    const ajv = sharedAjv();
    app.setValidatorCompiler(({ schema }) => lazyValidator(() => ajv.compile(schema) as LazyValidator));
    for (const f of listSchemaFiles()) {
      app.addSchema(forSerializer(f.id, f.schema) as { $id: string });
    }
  },
  { name: 'schemas' },
);
