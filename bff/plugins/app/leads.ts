import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createLeadService, type CityLocator, type LeadService } from '../../services/leads';
import { loadServiceability } from '../../services/serviceability';

declare module 'fastify' {
  interface FastifyInstance {
    /** Leads of the signed-in user and their checklist sections (SPEC §3, §4). */
    leads: LeadService;
  }
}

/**
 * Decorates `app.leads` over `app.db`, with the serviceability rules of SERVICEABILITY_FILE (the server
 * refuses to start when that file is not valid), the distances of the configuration and `locator` to find
 * typed cities; `now` (ms since the epoch) stamps the rows.
 */
export default fp<{ now: () => number; config: Config; locator: CityLocator }>(
  async (app, { now, config, locator }) => {
    app.decorate(
      'leads',
      createLeadService(app.db, {
        now,
        serviceability: loadServiceability(config.serviceabilityFile),
        locator,
        locationConfirmDistanceM: config.locationConfirmDistanceM,
        otaMatchRadiusM: config.otaMatchRadiusM,
        // The KYC service is registered after this one; it is looked up when a KYC save needs it.
        kycEvidence: (lead, data, country) => app.kyc.evidence(lead, data, country),
      }),
    );
  },
  { name: 'leads', dependencies: ['db', 'places'] },
);
