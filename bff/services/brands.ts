import { sharedAjv } from '../../schemas/ajv';
import type { BrandsData } from '../../schemas/generated/types';
import brandsDocument from '../screens/data/brands.json' with { type: 'json' };

/** One brand of bff/screens/data/brands.json. */
export interface Brand {
  /** Key the screens compare `brand` with: hotel | holiday_home. */
  brand: string;
  /** OYO | OVH. */
  code: string;
  /** The lead's status once published. */
  publishedStatus: 'LIVE' | 'UNDER_REVIEW';
}

/** The brands and which property type is listed under which. */
export interface BrandRules {
  /** The brand of a property type (the default brand for a type not listed). */
  brandOf(propertyType: string): Brand;
  /** A brand by its key (the default brand for an unknown key). */
  byKey(brand: string): Brand;
  /** The brand of screens drawn without a lead. */
  defaultBrand: Brand;
}

/**
 * Reads and checks the brands (SPEC §1 holiday-home variant 'OVH'): `doc` against
 * schemas/data/brands.json, every brand once, default_brand and every property type's brand among them.
 * @throws Error naming the problem; the server refuses to start with it.
 */
export function loadBrands(doc: unknown = brandsDocument): BrandRules {
  const validate = sharedAjv().getSchema('data/brands.schema.json');
  if (!validate) throw new Error('no schema data/brands.schema.json');
  if (!validate(doc)) {
    const e = validate.errors?.[0];
    throw new Error(`brands: ${e?.instancePath || '/'} ${e?.message ?? 'invalid'}`);
  }
  const data = doc as BrandsData;
  const byKey = new Map<string, Brand>();
  for (const b of data.brands) {
    if (byKey.has(b.brand)) throw new Error(`brands: ${b.brand} is listed twice`);
    byKey.set(b.brand, { brand: b.brand, code: b.code, publishedStatus: b.published_status });
  }
  const defaultBrand = byKey.get(data.default_brand);
  if (!defaultBrand) throw new Error(`brands: default_brand ${data.default_brand} is not a brand`);
  for (const [type, brand] of Object.entries(data.property_types))
    if (!byKey.has(brand)) throw new Error(`brands: property type ${type} names unknown brand ${brand}`);
  return {
    brandOf: (propertyType) =>
      (Object.hasOwn(data.property_types, propertyType)
        ? byKey.get(data.property_types[propertyType]!)
        : undefined) ?? defaultBrand,
    byKey: (brand) => byKey.get(brand) ?? defaultBrand,
    defaultBrand,
  };
}

/** The default brands (bff/screens/data/brands.json), loaded once. */
export const BRANDS: BrandRules = loadBrands();
