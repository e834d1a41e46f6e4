import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createPropertyService, loadReferrers, type PropertyService } from '../../services/properties';

declare module 'fastify' {
  interface FastifyInstance {
    /** The dashboard's properties, listings and referral codes of the signed-in user (SPEC §2–§4). */
    properties: PropertyService;
  }
}

/**
 * Decorates `app.properties` over `app.db`, with the referral codes of REFERRERS_FILE (the server refuses
 * to start when that file is not valid); `now` (ms since the epoch) stamps the rows and counts months
 * inactive.
 */
export default fp<{ now: () => number; config: Config }>(
  async (app, { now, config }) => {
    app.decorate(
      'properties',
      createPropertyService(app.db, { now, referrers: loadReferrers(config.referrersFile) }),
    );
  },
  { name: 'properties', dependencies: ['db'] },
);
