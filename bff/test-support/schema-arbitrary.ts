import fc from 'fast-check';

/** A JSON Schema as it appears in the OpenAPI document (draft 2020-12 subset used by the route schemas). */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  [key: string]: unknown;
};

/** Resolves `#/components/schemas/<name>` references of one OpenAPI document. */
export type RefResolver = (ref: string) => JsonSchema;

/** A resolver over `doc.components.schemas`. @throws Error for a reference the document does not hold. */
export function componentResolver(doc: {
  components?: { schemas?: Record<string, JsonSchema> };
}): RefResolver {
  return (ref) => {
    const name = ref.replace(/^#\/components\/schemas\//, '');
    const schema = doc.components?.schemas?.[name];
    if (!schema) throw new Error(`unresolved $ref ${ref}`);
    return schema;
  };
}

/** Strings at and around the usual edges: empty, blanks, control and bidi characters, very long, path tricks. */
export const edgeStrings: fc.Arbitrary<string> = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\u202e',
  '../../etc/passwd',
  '%00',
  'null',
  '0',
  '-1',
  '1e309',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  'a'.repeat(10_001),
  '\ud800',
  '😀'.repeat(300),
);

/** Any JSON value, the edge strings among them. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  fc.jsonValue({ maxDepth: 3 }),
  edgeStrings,
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e308, -0, 0.5, 2 ** 31),
);

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, schema.maxLength ?? Math.max(minLength, 40));
  if (schema.pattern) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(schema.pattern, 'u');
    } catch {
      re = undefined;
    }
    if (re) {
      const fitting = fc.stringMatching(re).filter((s) => s.length >= minLength && s.length <= maxLength);
      return fc.oneof(fitting, fc.string({ minLength, maxLength }));
    }
  }
  switch (schema.format) {
    case 'email':
      return fc.oneof(fc.emailAddress(), fc.string({ minLength, maxLength }));
    case 'uri':
    case 'url':
      return fc.oneof(fc.webUrl(), fc.string({ minLength, maxLength }));
    case 'uuid':
      return fc.oneof(fc.uuid(), fc.string({ minLength, maxLength }));
    case 'date':
      return fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
        fc.string({ minLength, maxLength }),
      );
    case 'date-time':
      return fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.string({ minLength, maxLength }),
      );
    default:
      return fc.oneof(
        fc.string({ minLength, maxLength }),
        fc.string({ unit: 'grapheme', minLength, maxLength }),
        // The boundaries themselves.
        fc.constant('x'.repeat(minLength)),
        fc.constant('x'.repeat(maxLength)),
      );
  }
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  const max =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
  const edges = [
    min,
    max,
    min !== undefined ? min - 1 : undefined,
    max !== undefined ? max + 1 : undefined,
  ].filter((n): n is number => n !== undefined && Number.isFinite(n));
  const inRange = integer
    ? fc.integer({
        min: Math.max(Math.ceil(min ?? -1e9), -(2 ** 31)),
        max: Math.min(Math.floor(max ?? 1e9), 2 ** 31 - 1),
      })
    : fc.double({ min: min ?? -1e9, max: max ?? 1e9, noNaN: true, noDefaultInfinity: true });
  return edges.length > 0 ? fc.oneof(inRange, fc.constantFrom(...edges)) : inRange;
}

/**
 * A fast-check arbitrary of values shaped by `schema`: mostly what the schema describes (its enums, formats,
 * patterns, lengths and ranges, with the boundaries themselves), and, at `depth` 0 of every property, now
 * and then something else (another type, an edge string, a missing required property, an extra one), so
 * that a route sees valid, boundary and invalid input (issue 14 item 7).
 */
export function arbitraryFor(
  schema: JsonSchema | boolean | undefined,
  resolve: RefResolver,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true || depth > 6) return anyJson;
  if (schema === false) return fc.constant(undefined);
  if (schema.$ref) return arbitraryFor(resolve(schema.$ref), resolve, depth);
  const valid = validShape(schema, resolve, depth);
  // A wrong value now and then, at every level.
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: anyJson });
}

function validShape(schema: JsonSchema, resolve: RefResolver, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.oneOf ?? schema.anyOf;
  if (choices && choices.length > 0)
    return fc.oneof(...choices.map((c) => arbitraryFor(c, resolve, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0) {
    const merged: JsonSchema = { ...schema, allOf: undefined };
    for (const part of schema.allOf) {
      const p = part.$ref ? resolve(part.$ref) : part;
      merged.properties = { ...merged.properties, ...p.properties };
      merged.required = [...(merged.required ?? []), ...(p.required ?? [])];
      merged.type ??= p.type;
    }
    return validShape(merged, resolve, depth);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1)
    return fc.oneof(...types.map((t) => validShape({ ...schema, type: t }, resolve, depth)));
  const type = types[0] ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryFor(schema.items, resolve, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, Math.max(schema.minItems ?? 0, 5)),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(properties))
        record[key] = arbitraryFor(sub, resolve, depth + 1);
      const shaped = fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
      // Now and then: a required property missing, or one the schema does not name.
      return fc.oneof(
        { weight: 8, arbitrary: shaped },
        {
          weight: 1,
          arbitrary: shaped.map((value) => {
            const copy: Record<string, unknown> = { ...value };
            const first = [...required][0];
            if (first !== undefined) delete copy[first];
            return copy;
          }),
        },
        { weight: 1, arbitrary: shaped.map((value) => ({ ...value, unexpected_field: 'x' })) },
      );
    }
    default:
      return anyJson;
  }
}
