import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Place } from '../../schemas/generated/types';
import {
  CLOSEST_MAX,
  CLOSEST_RADIUS_M,
  countryName,
  countryNameLanguage,
  createPlaceService,
  distanceMeters,
  normalisePlaceName,
  PLACE_RADIUS_M,
  type PlaceLogger,
} from './places';

/** SPEC §9 default map centre, in Gurgaon. */
const GURGAON_PIN = { lat: 28.3991744, lng: 77.0387653 };
const MID_ATLANTIC = { lat: 0, lng: -30 };

// One service for the gazetteer tests: the gazetteer loads once per process (~1 s).
const gazetteer = createPlaceService({ geocoderUrl: null });

beforeAll(async () => {
  await gazetteer.search('warm up', { locale: 'en-GB' });
});

/** True when a word of `name` starts with `q` (both normalised). */
const wordStarts = (name: string, q: string) =>
  ` ${normalisePlaceName(name)}`.includes(` ${normalisePlaceName(q)}`);

describe('distanceMeters', () => {
  it('measures Delhi–Mumbai as about 1 150 km (within 1 %), symmetric, and 0 from a point to itself', () => {
    const delhi = { lat: 28.6139, lng: 77.209 };
    const mumbai = { lat: 19.076, lng: 72.8777 };
    const d = distanceMeters(delhi, mumbai);
    expect(d).toBeGreaterThan(1_150_000 * 0.99);
    expect(d).toBeLessThan(1_150_000 * 1.01);
    expect(distanceMeters(mumbai, delhi)).toBeCloseTo(d, 6);
    expect(distanceMeters(delhi, delhi)).toBe(0);
  });

  it('measures a quarter of the equator as a quarter of the circumference', () => {
    const d = distanceMeters({ lat: 0, lng: 0 }, { lat: 0, lng: 90 });
    expect(d).toBeCloseTo((Math.PI / 2) * 6371008.8, 0);
  });
});

describe('normalisePlaceName and country names', () => {
  it('drops accents, case and punctuation, and folds letters NFD keeps', () => {
    expect(normalisePlaceName('  São  Paulo ')).toBe('sao paulo');
    expect(normalisePlaceName('Saint-Étienne')).toBe('saint etienne');
    expect(normalisePlaceName('Łódź')).toBe('lodz');
    expect(normalisePlaceName('Straße')).toBe('strasse');
    expect(normalisePlaceName('--')).toBe('');
  });

  it('maps our locales to the library languages, English when it has none', () => {
    expect(countryNameLanguage('fr-CA')).toBe('fr');
    expect(countryNameLanguage('es-MX')).toBe('es');
    expect(countryNameLanguage('zh-CN')).toBe('zh');
    expect(countryNameLanguage('en-GB')).toBe('en');
    expect(countryNameLanguage('xx')).toBe('en');
    expect(countryName('IN', 'ar')).toBe('الهند');
    expect(countryName('IN', 'fr-FR')).toBe('Inde');
    expect(countryName('DE', 'de')).toBe('Deutschland');
    expect(countryName('IN', 'xx-YY')).toBe('India');
  });
});

describe('gazetteer search', () => {
  it("finds Gurgaon, India first for 'gurg', with its GeoNames id and no street details", async () => {
    const places = await gazetteer.search('gurg', { locale: 'en-GB' });
    expect(places[0]).toMatchObject({
      id: 'gn:1270642',
      name: 'Gurgaon',
      country: 'IN',
      country_name: 'India',
      state: null,
      postal_code: null,
      address_line: null,
      label: 'Gurgaon, India',
    });
    expect(places[0]!.population).toBeGreaterThan(100_000);
    expect(distanceMeters(places[0]!, GURGAON_PIN)).toBeLessThan(10_000);
    expect(places[0]).not.toHaveProperty('distance_m');
  });

  it("ignores accents and case: 'sao paulo' and 'SÃO PAULO' find São Paulo, Brazil first", async () => {
    for (const q of ['sao paulo', 'SÃO PAULO', '  Sao-Paulo ']) {
      const [first] = await gazetteer.search(q, { locale: 'en-GB' });
      expect(first, q).toMatchObject({ name: 'São Paulo', country: 'BR', country_name: 'Brazil' });
    }
  });

  it('puts words starting with the query before the query inside a word, most populous first in each', async () => {
    // Łódź and the towns named after it start a word with 'lodz'; Kłodzko only contains it.
    const places = await gazetteer.search('lodz', { locale: 'en-GB', limit: 20 });
    expect(places.length).toBeGreaterThan(3);
    expect(places[0]).toMatchObject({ name: 'Łódź', country: 'PL' });
    const tiers = places.map((p) => (wordStarts(p.name, 'lodz') ? 0 : 1));
    expect(tiers).toEqual([...tiers].sort());
    expect(tiers).toContain(1);
    for (let i = 1; i < places.length; i += 1) {
      if (tiers[i] === tiers[i - 1]) {
        expect(places[i]!.population ?? 0).toBeLessThanOrEqual(places[i - 1]!.population ?? 0);
      }
    }
    for (const p of places) expect(normalisePlaceName(p.name)).toContain('lodz');
  });

  it('filters by country (either case)', async () => {
    const anywhere = await gazetteer.search('delhi', { locale: 'en-GB' });
    expect(anywhere[0]!.country).toBe('IN');
    const us = await gazetteer.search('delhi', { locale: 'en-GB', country: 'us' });
    expect(us.length).toBeGreaterThan(0);
    expect(us.every((p) => p.country === 'US' && normalisePlaceName(p.name).includes('delhi'))).toBe(true);
  });

  it('returns 8 places by default and honours limit, clamped to 1..20', async () => {
    expect(await gazetteer.search('san', { locale: 'en-GB' })).toHaveLength(8);
    expect(await gazetteer.search('san', { locale: 'en-GB', limit: 3 })).toHaveLength(3);
    expect(await gazetteer.search('san', { locale: 'en-GB', limit: 500 })).toHaveLength(20);
    expect(await gazetteer.search('san', { locale: 'en-GB', limit: 0 })).toHaveLength(1);
  });

  it('searches a 1-letter query (the route refuses it) and finds nothing for a query without letters', async () => {
    const g = await gazetteer.search('g', { locale: 'en-GB' });
    expect(g.length).toBe(8);
    expect(g.every((p) => wordStarts(p.name, 'g'))).toBe(true);
    expect(await gazetteer.search(' -- ', { locale: 'en-GB' })).toEqual([]);
    expect(await gazetteer.search('qqxqzv', { locale: 'en-GB' })).toEqual([]);
  });

  it("names countries in the request's language", async () => {
    const [ar] = await gazetteer.search('gurg', { locale: 'ar' });
    expect(ar).toMatchObject({ name: 'Gurgaon', country_name: 'الهند', label: 'Gurgaon, الهند' });
    const [fr] = await gazetteer.search('gurg', { locale: 'fr-CA' });
    expect(fr!.country_name).toBe('Inde');
  });
});

describe('gazetteer reverse geocoding', () => {
  it('finds Gurgaon at the default map centre, and the nearest cities sorted with their distances', async () => {
    const { place, closest } = await gazetteer.reverse(GURGAON_PIN.lat, GURGAON_PIN.lng, { locale: 'en-GB' });
    expect(place).toMatchObject({ id: 'gn:1270642', name: 'Gurgaon', country: 'IN' });
    expect(place!.distance_m).toBe(Math.round(distanceMeters(GURGAON_PIN, place!)));
    expect(place!.distance_m).toBeLessThanOrEqual(PLACE_RADIUS_M);
    expect(closest.length).toBeGreaterThan(1);
    expect(closest.length).toBeLessThanOrEqual(CLOSEST_MAX);
    expect(closest[0]).toEqual(place);
    const distances = closest.map((p) => p.distance_m!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const p of closest) {
      expect(p.distance_m).toBe(Math.round(distanceMeters(GURGAON_PIN, p)));
      expect(p.distance_m).toBeLessThanOrEqual(CLOSEST_RADIUS_M);
    }
  });

  it('finds nothing mid-Atlantic', async () => {
    expect(await gazetteer.reverse(MID_ATLANTIC.lat, MID_ATLANTIC.lng, { locale: 'en-GB' })).toEqual({
      place: null,
      closest: [],
    });
  });

  it('lists closest cities but no place when the nearest is between 50 and 100 km away', async () => {
    // 0.6° of latitude (~67 km) south of Alice Springs: desert, its suburbs the nearest places.
    const [alice] = await gazetteer.search('alice springs', { locale: 'en-GB', country: 'AU' });
    const atTown = await gazetteer.reverse(alice!.lat, alice!.lng, { locale: 'en-GB' });
    expect(atTown.place?.country).toBe('AU');
    const pin = { lat: alice!.lat - 0.6, lng: alice!.lng };
    const { place, closest } = await gazetteer.reverse(pin.lat, pin.lng, { locale: 'en-GB' });
    expect(place).toBeNull();
    expect(closest.length).toBeGreaterThan(0);
    for (const p of closest) {
      expect(p.country).toBe('AU');
      expect(p.distance_m).toBeGreaterThan(PLACE_RADIUS_M);
      expect(p.distance_m).toBeLessThanOrEqual(CLOSEST_RADIUS_M);
    }
  });

  it('refuses a position out of range with a RangeError', async () => {
    await expect(gazetteer.reverse(91, 0, { locale: 'en-GB' })).rejects.toThrow(RangeError);
    await expect(gazetteer.reverse(0, Number.NaN, { locale: 'en-GB' })).rejects.toThrow(RangeError);
  });
});

describe('locate', () => {
  it('finds the typed city in its country: exact name first, then a name starting with it', async () => {
    const gurgaon = await gazetteer.locate('gurgaon', 'IN');
    expect(gurgaon).toMatchObject({ id: 'gn:1270642', name: 'Gurgaon', country: 'IN' });
    expect((await gazetteer.locate('  GURGAON ', 'in'))?.id).toBe('gn:1270642');
    expect((await gazetteer.locate('Mumb', 'IN'))?.name).toBe('Mumbai');
    expect(await gazetteer.locate('sao paulo', 'BR', 'ar')).toMatchObject({
      name: 'São Paulo',
      country_name: 'البرازيل',
    });
  });

  it('prefers the exact name over a more populous city starting with it', async () => {
    // Search ranks the more populous Durgapur first; the owner who typed 'Durg' meant Durg.
    const search = await gazetteer.search('durg', { locale: 'en-GB', country: 'IN' });
    const durg = search.find((p) => p.name === 'Durg');
    expect(durg).toBeDefined();
    expect(search[0]!.name).toBe('Durgapur');
    expect(search[0]!.population).toBeGreaterThan(durg!.population!);
    expect((await gazetteer.locate('durg', 'IN'))?.id).toBe(durg!.id);
    expect((await gazetteer.locate('durga', 'IN'))?.id).toBe(search[0]!.id);
  });

  it('finds nothing in another country, for an empty name or a bad country', async () => {
    expect(await gazetteer.locate('gurgaon', 'PK')).toBeUndefined();
    expect(await gazetteer.locate(' ', 'IN')).toBeUndefined();
    expect(await gazetteer.locate('gurgaon', 'IND')).toBeUndefined();
  });
});

/** A Nominatim stand-in: real HTTP on a free port, answering per `mode`, recording every request. */
interface FakeGeocoder {
  url: string;
  mode: 'ok' | 'error' | 'garbage' | 'hang' | 'nothing';
  requests: { path: string; params: URLSearchParams; headers: IncomingHttpHeaders }[];
  server: Server;
}

const searchAnswer = [
  {
    place_id: 901,
    osm_type: 'node',
    osm_id: 123,
    lat: '28.4595',
    lon: '77.0266',
    name: 'Galaxy Hotel',
    display_name: 'Galaxy Hotel, 12, MG Road, Gurugram, Haryana, 122002, India',
    address: {
      house_number: '12',
      road: 'MG Road',
      city: 'Gurugram',
      state: 'Haryana',
      postcode: '122002',
      country: 'India',
      country_code: 'in',
    },
  },
  {
    place_id: 902,
    osm_type: 'relation',
    osm_id: 456,
    lat: '28.2474',
    lon: '77.0654',
    name: 'Sohna',
    address: { town: 'Sohna', state: 'Haryana', country_code: 'in' },
  },
  { place_id: 903, lat: 'not a number', lon: '1', address: { city: 'Nowhere', country_code: 'in' } },
];

const reverseAnswer = {
  place_id: 77,
  osm_type: 'way',
  osm_id: 789,
  lat: '28.39920',
  lon: '77.03880',
  address: {
    road: 'Sohna Road',
    house_number: '5',
    village: 'Badshahpur',
    state: 'Haryana',
    postcode: '122101',
    country_code: 'in',
  },
};

async function startFakeGeocoder(): Promise<FakeGeocoder> {
  const fake = { mode: 'ok', requests: [] } as unknown as FakeGeocoder;
  fake.server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    fake.requests.push({ path: url.pathname, params: url.searchParams, headers: req.headers });
    if (fake.mode === 'hang') return;
    if (fake.mode === 'error') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    if (fake.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"surprise": true}');
      return;
    }
    const body =
      url.pathname === '/search'
        ? fake.mode === 'nothing'
          ? []
          : searchAnswer
        : fake.mode === 'nothing'
          ? { error: 'Unable to geocode' }
          : reverseAnswer;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/`;
  return fake;
}

describe('with a Nominatim-compatible geocoder', () => {
  let fake: FakeGeocoder;
  const warnings: { obj: object; msg: string }[] = [];
  const log: PlaceLogger = { warn: (obj, msg) => warnings.push({ obj, msg }), error: () => {} };
  let geocoded: ReturnType<typeof createPlaceService>;

  beforeAll(async () => {
    fake = await startFakeGeocoder();
    geocoded = createPlaceService({ geocoderUrl: fake.url, log, timeoutMs: 500 });
  });
  afterAll(async () => {
    fake.server.closeAllConnections();
    await new Promise<void>((resolve) => fake.server.close(() => resolve()));
  });
  beforeEach(() => {
    fake.mode = 'ok';
    fake.requests.length = 0;
    warnings.length = 0;
  });

  it("asks /search in jsonv2 with address details, the limit, the country, a User-Agent and the request's language", async () => {
    await geocoded.search(' Gurugram ', { locale: 'ar', country: 'IN', limit: 4 });
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req!.path).toBe('/search');
    expect(Object.fromEntries(req!.params)).toEqual({
      q: 'Gurugram',
      format: 'jsonv2',
      addressdetails: '1',
      limit: '4',
      countrycodes: 'in',
    });
    expect(req!.headers['user-agent']).toMatch(/^property-onboard\//);
    expect(req!.headers['accept-language']).toBe('ar');
  });

  it('maps the answer to places: street line, postal code, state, town as the name; drops entries without a position', async () => {
    const places = await geocoded.search('gurugram', { locale: 'en-GB' });
    expect(places).toEqual<Place[]>([
      {
        id: 'osm:node:123',
        name: 'Gurugram',
        country: 'IN',
        country_name: 'India',
        state: 'Haryana',
        postal_code: '122002',
        address_line: 'MG Road 12',
        lat: 28.4595,
        lng: 77.0266,
        population: null,
        label: 'MG Road 12, Gurugram, India',
      },
      {
        id: 'osm:relation:456',
        name: 'Sohna',
        country: 'IN',
        country_name: 'India',
        state: 'Haryana',
        postal_code: null,
        address_line: null,
        lat: 28.2474,
        lng: 77.0654,
        population: null,
        label: 'Sohna, India',
      },
    ]);
    expect(warnings).toEqual([]);
  });

  it('passes on an empty answer as no places, without falling back', async () => {
    fake.mode = 'nothing';
    expect(await geocoded.search('zzzz', { locale: 'en-GB' })).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("reverse: the geocoder's address at the pin with its distance, the gazetteer's closest cities", async () => {
    const { place, closest } = await geocoded.reverse(GURGAON_PIN.lat, GURGAON_PIN.lng, { locale: 'en-GB' });
    expect(Object.fromEntries(fake.requests[0]!.params)).toEqual({
      lat: String(GURGAON_PIN.lat),
      lon: String(GURGAON_PIN.lng),
      format: 'jsonv2',
      addressdetails: '1',
      zoom: '18',
    });
    expect(place).toMatchObject({
      id: 'osm:way:789',
      name: 'Badshahpur',
      address_line: 'Sohna Road 5',
      postal_code: '122101',
      state: 'Haryana',
      country: 'IN',
    });
    expect(place!.distance_m).toBe(Math.round(distanceMeters(GURGAON_PIN, { lat: 28.3992, lng: 77.0388 })));
    expect(closest[0]).toMatchObject({ id: 'gn:1270642', name: 'Gurgaon' });
    expect(warnings).toEqual([]);
  });

  it("reverse: where the geocoder finds nothing, the gazetteer's nearest city (none mid-ocean)", async () => {
    fake.mode = 'nothing';
    const near = await geocoded.reverse(GURGAON_PIN.lat, GURGAON_PIN.lng, { locale: 'en-GB' });
    expect(near.place?.id).toBe('gn:1270642');
    const sea = await geocoded.reverse(MID_ATLANTIC.lat, MID_ATLANTIC.lng, { locale: 'en-GB' });
    expect(sea).toEqual({ place: null, closest: [] });
    expect(warnings).toEqual([]);
  });

  for (const mode of ['error', 'garbage', 'hang'] as const) {
    it(`falls back to the gazetteer with a warning when the geocoder answers ${mode === 'hang' ? 'too late' : mode}`, async () => {
      fake.mode = mode;
      const places = await geocoded.search('gurg', { locale: 'en-GB' });
      expect(places[0]).toMatchObject({ id: 'gn:1270642', name: 'Gurgaon' });
      const { place } = await geocoded.reverse(GURGAON_PIN.lat, GURGAON_PIN.lng, { locale: 'en-GB' });
      expect(place?.id).toBe('gn:1270642');
      expect(fake.requests.map((r) => r.path)).toEqual(['/search', '/reverse']);
      expect(warnings.map((w) => w.msg)).toEqual([
        'geocoder failed; answering from the gazetteer',
        'geocoder failed; answering from the gazetteer',
      ]);
      expect(warnings[0]!.obj).toMatchObject({ operation: 'search' });
      expect(warnings[1]!.obj).toMatchObject({ operation: 'reverse' });
    });
  }

  it('locate asks the geocoder only when the gazetteer has no such city', async () => {
    expect((await geocoded.locate('gurgaon', 'IN'))?.id).toBe('gn:1270642');
    expect(fake.requests).toHaveLength(0);
    const found = await geocoded.locate('Gurugram', 'IN');
    expect(found?.id).toBe('osm:node:123');
    expect(Object.fromEntries(fake.requests[0]!.params)).toMatchObject({
      q: 'Gurugram',
      countrycodes: 'in',
      limit: '1',
    });
  });

  it('falls back to the gazetteer when the geocoder is not listening', async () => {
    const closed = await startFakeGeocoder();
    await new Promise<void>((resolve) => closed.server.close(() => resolve()));
    const gone = createPlaceService({ geocoderUrl: closed.url, log });
    const places = await gone.search('sao paulo', { locale: 'en-GB' });
    expect(places[0]).toMatchObject({ name: 'São Paulo', country: 'BR' });
    expect(warnings).toHaveLength(1);
    expect(closed.requests).toHaveLength(0);
  });
});
