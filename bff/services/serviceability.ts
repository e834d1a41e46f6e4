import { readFileSync } from 'node:fs';
import { sharedAjv } from '../../schemas/ajv';
import type { Serviceability } from '../../schemas/generated/types';
import defaultServiceability from '../screens/data/serviceability.json' with { type: 'json' };
import { normalisePlaceName as normaliseName } from './places';

/**
 * Where the provider onboards properties (SPEC §4 cold leads): served countries and cities, and the
 * property sub types not onboarded in a country.
 */
export interface ServiceabilityRules {
  /** Whether a property in `city` of `country` (ISO2) can be onboarded; cities compare by normalisePlaceName of ./places. */
  isServiceable(country: string, city: string): boolean;
  /** Whether `subType` is onboarded in `country` (ISO2); false in a country not served at all. */
  isSupported(country: string, subType: string): boolean;
}

/** The rules of a {@link Serviceability} document. */
export function serviceabilityRules(doc: Serviceability): ServiceabilityRules {
  const countries = new Map<string, { cities: '*' | Set<string>; unsupported: Set<string> }>(
    Object.entries(doc.countries).map(([code, c]) => [
      code,
      {
        cities: c.cities === '*' ? '*' : new Set(c.cities.map(normaliseName)),
        unsupported: new Set(c.unsupported_sub_types ?? []),
      },
    ]),
  );
  return {
    isServiceable(country, city) {
      const cities = countries.get(country.toUpperCase())?.cities;
      if (!cities) return false;
      return cities === '*' || cities.has(normaliseName(city));
    },
    isSupported(country, subType) {
      const c = countries.get(country.toUpperCase());
      return !!c && !c.unsupported.has(subType);
    },
  };
}

/**
 * Loads the serviceability rules from `file` (SERVICEABILITY_FILE), or bff/screens/data/serviceability.json
 * when null, checked against schemas/data/serviceability.schema.json.
 * @throws Error naming the file and the first schema error when the document is not valid.
 */
export function loadServiceability(file: string | null): ServiceabilityRules {
  const doc: unknown = file ? JSON.parse(readFileSync(file, 'utf8')) : defaultServiceability;
  const validate = sharedAjv().getSchema('data/serviceability.schema.json');
  if (!validate) throw new Error('no schema data/serviceability.schema.json');
  if (!validate(doc)) {
    const e = validate.errors?.[0];
    throw new Error(
      `${file ?? 'bff/screens/data/serviceability.json'}: ${e?.instancePath || '/'} ${e?.message ?? 'is not valid'}`,
    );
  }
  return serviceabilityRules(doc as Serviceability);
}
