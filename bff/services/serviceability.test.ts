import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServiceability, serviceabilityRules } from './serviceability';

describe('serviceability rules (SPEC §4 cold leads)', () => {
  const rules = serviceabilityRules({
    countries: {
      IN: { cities: '*', unsupported_sub_types: ['hostel'] },
      AE: { cities: ['Dubai', 'Abu Dhabi'] },
    },
  });

  it('serves every city of a "*" country and only the listed cities elsewhere', () => {
    expect(rules.isServiceable('IN', 'Gurgaon')).toBe(true);
    expect(rules.isServiceable('in', 'Anywhere')).toBe(true);
    expect(rules.isServiceable('AE', 'abu  dhabi')).toBe(true);
    expect(rules.isServiceable('AE', 'Sharjah')).toBe(false);
    expect(rules.isServiceable('NP', 'Kathmandu')).toBe(false);
  });

  it('supports every sub type but the listed ones, and none in a country not served', () => {
    expect(rules.isSupported('IN', 'hotel')).toBe(true);
    expect(rules.isSupported('IN', 'hostel')).toBe(false);
    expect(rules.isSupported('AE', 'hostel')).toBe(true);
    expect(rules.isSupported('NP', 'hotel')).toBe(false);
  });
});

describe('loadServiceability', () => {
  it('reads the default file of bff/screens/data', () => {
    expect(loadServiceability(null).isServiceable('IN', 'Gurgaon')).toBe(true);
  });

  it('reads SERVICEABILITY_FILE and refuses one that breaks the schema, naming the file and the path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'serviceability-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ countries: { GB: { cities: ['London'] } } }));
    expect(loadServiceability(good).isServiceable('GB', 'london')).toBe(true);
    expect(loadServiceability(good).isServiceable('IN', 'Gurgaon')).toBe(false);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ countries: { india: { cities: '*' } } }));
    expect(() => loadServiceability(bad)).toThrow(/bad\.json: \/countries/);
    writeFileSync(bad, JSON.stringify({ countries: { IN: { cities: [] } } }));
    expect(() => loadServiceability(bad)).toThrow(/bad\.json: \/countries\/IN\/cities/);
  });
});
