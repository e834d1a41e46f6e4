import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { IDENTIFIER_CHECKS, IDENTIFIER_KINDS } from './identifiers';
import { listSchemaFiles } from './tools/schema-files';

/** The ajv instance type used across the project (JSON Schema 2020-12). */
export type SchemaValidator = InstanceType<typeof Ajv2020>;

/**
 * The one ajv factory: draft 2020-12, `allErrors`, the formats of ajv-formats and one per KYC identifier
 * (`pan`, `gstin`, `aadhaar`, `voter_id`, `driving_licence`, `passport`, `vehicle_rc`: the value passes
 * schemas/identifiers' check, e.g. `{ "type": "string", "format": "gstin" }`), every schema of schemas/ added under its
 * `$id` (its path relative to schemas/, e.g. `widgets/input.schema.json`).
 * Node only (reads the files); the browser uses the standalone validators in schemas/generated/.
 */
export function createAjv(
  options: {
    code?: { source?: boolean; esm?: boolean };
    unicode?: boolean;
    logger?: false;
    validateFormats?: boolean;
  } = {},
): SchemaValidator {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    ...options,
  });
  addFormats(ajv);
  for (const kind of IDENTIFIER_KINDS) {
    const check = IDENTIFIER_CHECKS[kind];
    ajv.addFormat(kind, { type: 'string', validate: (value: string) => check(value).valid });
  }
  ajv.addKeyword({ keyword: 'x-public' });
  // OpenAPI's annotation in route schemas (schemas/api); no effect on validation.
  ajv.addKeyword({ keyword: 'example' });
  // Left in some widget schemas from when lazily loaded validators had a module of their own; every widget's is now.
  ajv.addKeyword({ keyword: 'x-lazy' });
  for (const f of listSchemaFiles()) ajv.addSchema(f.schema, f.id);
  return ajv;
}

let shared: SchemaValidator | undefined;

/**
 * The process's one ajv of {@link createAjv}'s defaults, made on first use (issue 13 item 5: each new
 * instance re-reads and re-checks every schema, ≈150 ms of CPU, and the server made ten at start). For
 * `getSchema(id)` and `compile(schema)` only: never add schemas, keywords or formats to it.
 */
export function sharedAjv(): SchemaValidator {
  return (shared ??= createAjv());
}
