import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Place } from '../../../schemas/generated/types';
import { distanceMeters } from '../../services/places';
import { buildTestApp, signInNewOwner } from '../../test-helpers';

const BASE = '/hms_ms/api/v1/places';
/** SPEC §9 default map centre, in Gurgaon. */
const PIN = { lat: 28.3991744, lng: 77.0387653 };

let app: FastifyInstance;
let owner: string;

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { cookie: owner, ...headers } });

beforeAll(async () => {
  app = await buildTestApp();
  owner = await signInNewOwner(app);
});

describe('GET /hms_ms/api/v1/places/search (searchPlaces)', () => {
  it('answers 401 without a session', async () => {
    const res = await app.inject(`${BASE}/search?q=gurg`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'ONB_UNAUTHORIZED' } });
  });

  it('finds Gurgaon first for "gurg" in India, within the limit', async () => {
    const res = await get(`${BASE}/search?q=gurg&country=in&limit=3&qid=H123`);
    expect(res.statusCode, res.body).toBe(200);
    const { success, data } = res.json<{ success: boolean; data: { places: Place[] } }>();
    expect(success).toBe(true);
    expect(data.places.length).toBeGreaterThan(0);
    expect(data.places.length).toBeLessThanOrEqual(3);
    expect(data.places[0]).toEqual({
      id: 'gn:1270642',
      name: 'Gurgaon',
      country: 'IN',
      country_name: 'India',
      state: null,
      postal_code: null,
      address_line: null,
      lat: expect.any(Number),
      lng: expect.any(Number),
      population: expect.any(Number),
      label: 'Gurgaon, India',
    });
    expect(data.places.every((p) => p.country === 'IN')).toBe(true);
  });

  it('returns 8 places without a limit and an empty list when nothing matches', async () => {
    expect((await get(`${BASE}/search?q=san`)).json().data.places).toHaveLength(8);
    const none = await get(`${BASE}/search?q=${encodeURIComponent('qqxqzv')}`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ success: true, data: { places: [] } });
  });

  it('names countries in the language of httpxoyolang', async () => {
    const res = await get(`${BASE}/search?q=${encodeURIComponent('São Paulo')}`, { httpxoyolang: 'ar' });
    const [first] = res.json<{ data: { places: Place[] } }>().data.places;
    expect(first).toMatchObject({ name: 'São Paulo', country: 'BR', country_name: 'البرازيل' });
    const gurgaon = await get(`${BASE}/search?q=gurg`, { httpxoyolang: 'ar' });
    expect(gurgaon.json().data.places[0].country_name).toBe('الهند');
  });

  it("refuses a bad query with 400 'Invalid Input' and the field", async () => {
    const cases: [string, string][] = [
      ['q=g', 'q'],
      [`q=${encodeURIComponent(' g ')}`, 'q'],
      ['q=', 'q'],
      [`q=${'a'.repeat(101)}`, 'q'],
      ['country=IN', 'q'],
      ['q=gurg&country=IND', 'country'],
      ['q=gurg&limit=0', 'limit'],
      ['q=gurg&limit=21', 'limit'],
      ['q=gurg&limit=2.5', 'limit'],
      ['q=gurg&limit=many', 'limit'],
      ['q=gurg&q=delhi', 'q'],
      ['q=gurg&foo=1', 'foo'],
    ];
    for (const [query, field] of cases) {
      const res = await get(`${BASE}/search?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toEqual({ code: 'ONB_INVALID_INPUT', message: 'Invalid Input', field });
    }
  });
});

describe('GET /hms_ms/api/v1/places/reverse (reverseGeocode)', () => {
  it('answers 401 without a session', async () => {
    const res = await app.inject(`${BASE}/reverse?lat=${PIN.lat}&lng=${PIN.lng}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('ONB_UNAUTHORIZED');
  });

  it("gives the pin's city and the closest cities, nearest first, with their distances", async () => {
    const res = await get(`${BASE}/reverse?lat=${PIN.lat}&lng=${PIN.lng}`, { httpxoyolang: 'ar' });
    expect(res.statusCode, res.body).toBe(200);
    const { place, closest } = res.json<{ data: { place: Place; closest: Place[] } }>().data;
    expect(place).toMatchObject({ id: 'gn:1270642', name: 'Gurgaon', country: 'IN', country_name: 'الهند' });
    expect(place.distance_m).toBe(Math.round(distanceMeters(PIN, place)));
    expect(closest[0]).toEqual(place);
    expect(closest.length).toBeLessThanOrEqual(5);
    const distances = closest.map((p) => p.distance_m!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(distances.every((d) => Number.isInteger(d) && d <= 100_000)).toBe(true);
  });

  it('answers place null and no closest cities mid-ocean', async () => {
    const res = await get(`${BASE}/reverse?lat=0&lng=-30`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { place: null, closest: [] } });
  });

  it("refuses a bad position with 400 'Invalid Input' and the field", async () => {
    const cases: [string, string][] = [
      ['lat=91&lng=0', 'lat'],
      ['lat=-90.5&lng=0', 'lat'],
      ['lat=0&lng=180.01', 'lng'],
      ['lat=abc&lng=0', 'lat'],
      ['lat=&lng=0', 'lat'],
      ['lng=0', 'lat'],
      ['lat=0', 'lng'],
      ['lat=0&lng=0&zoom=3', 'zoom'],
    ];
    for (const [query, field] of cases) {
      const res = await get(`${BASE}/reverse?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toEqual({ code: 'ONB_INVALID_INPUT', message: 'Invalid Input', field });
    }
  });
});

describe('OpenAPI document', () => {
  it('lists searchPlaces and reverseGeocode with their query parameters', async () => {
    const doc = (await app.inject('/hms_ms/api/openapi.json')).json();
    const search = doc.paths[`${BASE}/search`]?.get;
    const reverse = doc.paths[`${BASE}/reverse`]?.get;
    expect(search?.operationId).toBe('searchPlaces');
    expect(reverse?.operationId).toBe('reverseGeocode');
    const names = (op: { parameters: { in: string; name: string }[] }) =>
      op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    expect(names(search)).toEqual(expect.arrayContaining(['q', 'country', 'limit']));
    expect(names(reverse)).toEqual(expect.arrayContaining(['lat', 'lng']));
  });
});

describe('startup', () => {
  it('loads the gazetteer on first use, neither when the app is built nor when it listens (issue 13 item 5)', async () => {
    const other = await buildTestApp();
    const warm = vi.spyOn(other.places, 'warm');
    await other.ready();
    await other.listen({ port: 0, host: '127.0.0.1' });
    expect(warm).not.toHaveBeenCalled();
    const cookie = await signInNewOwner(other);
    const res = await other.inject({ url: `${BASE}/search?q=gurg&country=in`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.places.length).toBeGreaterThan(0);
    await other.close();
  });
});
