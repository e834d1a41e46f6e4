import fp from 'fastify-plugin';
import { createPlaceService, type PlaceService } from '../../services/places';

declare module 'fastify' {
  interface FastifyInstance {
    /** City search, reverse geocoding and typed-city lookup of the address step (SPEC §2, §3). */
    places: PlaceService;
  }
}

/**
 * Decorates `app.places`: the gazetteer of cities, or the Nominatim-compatible geocoder at `geocoderUrl`
 * (GEOCODER_URL) with the gazetteer as fallback; failures are logged on `app.log`.
 */
export default fp<{ geocoderUrl: string | null }>(
  async (app, { geocoderUrl }) => {
    app.decorate('places', createPlaceService({ geocoderUrl, log: app.log }));
  },
  { name: 'places' },
);
