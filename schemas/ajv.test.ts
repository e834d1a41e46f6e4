import { describe, expect, it } from 'vitest';
import { createAjv, sharedAjv } from './ajv';
import { listSchemaFiles } from './tools/schema-files';

describe('createAjv identifier formats', () => {
  const ajv = createAjv();
  const cases: [format: string, valid: string, invalid: string][] = [
    ['pan', 'ABCPE1234F', 'ABCDE1234F'],
    ['gstin', '27AAPFU0939F1ZV', '27AAPFU0939F1ZW'],
    ['aadhaar', '2345 6789 0124', '2345 6789 0125'],
    ['voter_id', 'ABC1234567', 'AB12345678'],
    ['driving_licence', 'HR-0619850034761', 'HR-0618850034761'],
    ['passport', 'A2190457', 'Q2190457'],
    ['vehicle_rc', 'MH 12 AB 1234', 'MH 123 AB 1234'],
  ];

  it.each(cases)('format %s accepts %s and refuses %s', (format, valid, invalid) => {
    const validate = ajv.compile({ type: 'string', format });
    expect(validate(valid)).toBe(true);
    expect(validate(invalid)).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'format', params: { format } });
  });

  it('checks a KYC-like body with every error at once (allErrors)', () => {
    const validate = ajv.compile({
      type: 'object',
      properties: { pan: { type: 'string', format: 'pan' }, gstin: { type: 'string', format: 'gstin' } },
    });
    expect(validate({ pan: 'ABCPE1234F', gstin: '29AAGCB7383J1Z4' })).toBe(true);
    expect(validate({ pan: 'ABCPE1234', gstin: '29AAGCB7383J1Z5' })).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(['/pan', '/gstin']);
  });
});

describe('the schemas against the JSON Schema meta-schema', () => {
  it('every schema of schemas/ passes it (the shared instance skips that check at start)', () => {
    const ajv = createAjv();
    for (const f of listSchemaFiles()) {
      expect(ajv.validateSchema(f.schema), `${f.id}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
    }
  });

  it('a schema that breaks it is refused by the default instance, as a build would refuse it', () => {
    expect(() => createAjv().addSchema({ type: 'strin' }, 'broken.schema.json')).toThrow(/schema is invalid/);
    expect(() => sharedAjv().compile({ type: 'strin' })).toThrow();
  });
});
