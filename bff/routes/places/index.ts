import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PlaceSearchQuery, ReverseGeocodeQuery } from '../../../schemas/generated/types';
import { errorResponses, ok, ref } from '../responses';

const BASE = '/hms_ms/api/v1/places';

/** A decimal number as a query string writes it ('28.39', '-1e3'). */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * preValidation hook turning the named query parameters that are decimal numbers into numbers, since the
 * project's ajv does not coerce types; anything else is left for the schema to refuse (400).
 */
function numbersIn(names: readonly string[]) {
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    for (const name of names) {
      const v = query[name];
      if (typeof v === 'string' && DECIMAL.test(v)) query[name] = Number(v);
    }
  };
}

/**
 * Place search and reverse geocoding for the address step (SPEC §2 property location: search the city,
 * pin the exact location; §3 address/location). Signed-in only (401 ONB_UNAUTHORIZED without a session).
 * Country names are in the request's language (`httpxoyolang`). Bad query → 400 'Invalid Input' with the
 * field.
 */
export default async function placeRoutes(app: FastifyInstance) {
  const common = {
    tags: ['places'],
    security: [{ session: [] }],
    headers: ref('api/client-headers.schema.json'),
  };

  app.get<{ Querystring: PlaceSearchQuery }>(
    `${BASE}/search`,
    {
      preValidation: numbersIn(['limit']),
      schema: {
        ...common,
        operationId: 'searchPlaces',
        summary: 'Cities (or addresses, with a geocoder) matching what the owner typed',
        description:
          "Case and accents are ignored; a word starting with q comes before q inside a word, then the most populous first. q of fewer than 2 characters once trimmed, a country that is not two letters or a limit outside 1..20: 400 'Invalid Input' with field.",
        querystring: ref('api/place-search-query.schema.json'),
        response: { 200: ok(ref('api/place-search-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { q, country, limit } = request.query;
      const places = await app.places.search(q, {
        locale: request.locale,
        ...(country ? { country } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      reply.header('cache-control', 'private, max-age=3600').header('vary', 'httpxoyolang');
      return { success: true, data: { places } };
    },
  );

  app.get<{ Querystring: ReverseGeocodeQuery }>(
    `${BASE}/reverse`,
    {
      preValidation: numbersIn(['lat', 'lng']),
      schema: {
        ...common,
        operationId: 'reverseGeocode',
        summary: "The pin's place and the nearest cities",
        description:
          "place: the geocoder's address at the pin, else the nearest city within 50 km, else null; closest: up to 5 cities within 100 km, nearest first; each with distance_m. lat outside -90..90 or lng outside -180..180: 400 'Invalid Input' with field.",
        querystring: ref('api/reverse-geocode-query.schema.json'),
        response: { 200: ok(ref('api/reverse-geocode-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { lat, lng } = request.query;
      const result = await app.places.reverse(lat, lng, { locale: request.locale });
      reply.header('cache-control', 'private, max-age=3600').header('vary', 'httpxoyolang');
      return { success: true, data: result };
    },
  );
}
