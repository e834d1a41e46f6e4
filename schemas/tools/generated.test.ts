import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateTypes } from './gen-types';
import { generateValidators } from './gen-validators';
import { schemasDir } from './schema-files';

const committed = (name: string) => readFileSync(join(schemasDir, 'generated', name), 'utf8');

describe('schemas/generated', () => {
  it('types.ts is what json-schema-to-typescript makes of the schemas today', async () => {
    expect(committed('types.ts') === (await generateTypes()), 'stale: run `npm run gen:types`').toBe(true);
  });

  it('validators(-lazy).js and .d.ts are what ajv standalone makes of the schemas today', () => {
    const next = generateValidators();
    expect(committed('validators.js') === next.js, 'stale: run `npm run gen:validators`').toBe(true);
    expect(committed('validators.d.ts') === next.dts, 'stale: run `npm run gen:validators`').toBe(true);
    expect(committed('validators-lazy.js') === next.lazyJs, 'stale: run `npm run gen:validators`').toBe(true);
    expect(committed('validators-lazy.d.ts') === next.lazyDts, 'stale: run `npm run gen:validators`').toBe(
      true,
    );
  });
});
