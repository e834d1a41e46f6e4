import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateTypes, vocabularyTarget } from './gen-types';
import { vocabularyText } from './gen-vocabulary';
import { generateValidators, withoutAnnotations } from './gen-validators';
import { schemasDir } from './schema-files';

const generatedDir = join(schemasDir, 'generated');
const committed = (name: string) => readFileSync(join(generatedDir, name), 'utf8');

describe('schemas/generated', () => {
  it('screen-vocabulary.schema.json lists the translation keys and fragments of today', () => {
    expect(
      readFileSync(vocabularyTarget, 'utf8') === vocabularyText(),
      'stale: run `npm run gen:types`',
    ).toBe(true);
  });

  it('types.ts is what json-schema-to-typescript makes of the schemas today', async () => {
    expect(committed('types.ts') === (await generateTypes()), 'stale: run `npm run gen:types`').toBe(true);
  });

  it('the validator files are what ajv standalone makes of the schemas today, and no other is left', () => {
    const next = generateValidators();
    for (const [name, text] of next) {
      expect(committed(name) === text, `${name} is stale: run \`npm run gen:validators\``).toBe(true);
    }
    const present = [
      ...readdirSync(generatedDir).filter((f) => f !== 'types.ts' && f !== 'validators'),
      ...readdirSync(join(generatedDir, 'validators')).map((f) => `validators/${f}`),
    ];
    expect(present.sort()).toEqual([...next.keys()].sort());
  });

  it('one validator module per widget type, each in the typed map of dynamic imports', () => {
    const next = generateValidators();
    const types = readdirSync(join(schemasDir, 'widgets')).map((f) => f.replace('.schema.json', ''));
    for (const type of types) {
      expect(next.has(`validators/${type}.js`)).toBe(true);
      expect(next.get('widget-validators.ts')).toContain(
        `  ${type}: () => import('./validators/${type}.js'),`,
      );
    }
  });

  it('annotations are left out of the compiled schemas, property names and enum values are not', () => {
    const schema = {
      title: 'T',
      description: 'about',
      'x-lazy': true,
      type: 'object',
      properties: { description: { type: 'string', description: 'a field named description' } },
      anyOf: [{ $comment: 'c', enum: ['title', 'description'] }],
      $defs: { X: { title: 'X', const: { description: 'kept' } } },
    };
    expect(withoutAnnotations(schema)).toEqual({
      type: 'object',
      properties: { description: { type: 'string' } },
      anyOf: [{ enum: ['title', 'description'] }],
      $defs: { X: { const: { description: 'kept' } } },
    });
  });
});
