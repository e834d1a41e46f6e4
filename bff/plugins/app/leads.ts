import fp from 'fastify-plugin';
import { createLeadService, type LeadService } from '../../services/leads';

declare module 'fastify' {
  interface FastifyInstance {
    /** Leads of the signed-in user and their checklist sections (SPEC §3, §4). */
    leads: LeadService;
  }
}

/** Decorates `app.leads` over `app.db`; `now` (ms since the epoch) stamps the rows. */
export default fp<{ now: () => number }>(
  async (app, { now }) => {
    app.decorate('leads', createLeadService(app.db, now));
  },
  { name: 'leads', dependencies: ['db'] },
);
