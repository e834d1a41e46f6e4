import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { needsSession } from '../app/sessions';

/**
 * OpenAPI 3.1 document generated from the route schemas (every route has an operationId and tags);
 * served by the meta routes at GET /hms_ms/api/openapi.json. Shared schemas become components named
 * after their `$id` (slashes and dots replaced by `_`). A route registered after this plugin that needs a
 * session ({@link needsSession}) and declares no `security` of its own is documented with the `session`
 * scheme, so the document says which calls answer 401 without one.
 */
export default fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      if (route.schema && route.schema.security === undefined && needsSession(route.url, route.config)) {
        route.schema.security = [{ session: [] }];
      }
    });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Property onboarding BFF',
          description: 'Backend-for-frontend of the self-onboarding web app (SPEC §7).',
          version: '0.1.0',
        },
        tags: [
          { name: 'auth', description: 'OTP sign-in and sessions (SPEC §4)' },
          { name: 'global', description: 'Global info and metadata' },
          { name: 'screens', description: 'Server-driven screens' },
          { name: 'leads', description: 'Leads and the checklist (SPEC §3, §4)' },
          { name: 'images', description: 'Photos of a property (SPEC §3, §5)' },
          { name: 'publish', description: 'Review and publish of a property (SPEC §2, §3, §4)' },
          { name: 'contact', description: 'Contact verification by code; switch profile (SPEC §4, §6)' },
          {
            name: 'support',
            description:
              'Support chat (issue 6 item 7): owner routes with a session; staff routes with a bearer token',
          },
          {
            name: 'staff',
            description:
              "Screens' versions (issue 16 item 3): upload, publish, roll back and audit screen definitions without a deploy; bearer token",
          },
          { name: 'translations', description: 'Client messages per language' },
          { name: 'analytics', description: 'Analytics events from the browser (SPEC §9, issue 15)' },
          {
            name: 'telemetry',
            description: "The browser's performance traces, forwarded to the collector (issue 15)",
          },
          {
            name: 'errors',
            description: 'Error reports from the browser; staff: error groups (SPEC §9, issue 15 item 3)',
          },
          { name: 'funnel', description: 'Staff: where owners drop off (issue 15 item 2)' },
          { name: 'health', description: 'Liveness and readiness' },
          { name: 'dev', description: 'Development only' },
        ],
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'onboard_sid' },
            staffToken: { type: 'http', scheme: 'bearer', description: 'SUPPORT_STAFF_TOKEN' },
          },
        },
      },
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) =>
          typeof json.$id === 'string' ? json.$id.replace(/[^A-Za-z0-9_-]/g, '_') : `def-${i}`,
      },
    });
  },
  { name: 'swagger' },
);
