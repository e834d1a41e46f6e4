import type { FastifyInstance } from 'fastify';
import { onboardError } from '../../errors';
import { isLocale } from '../../services/translations';
import { errorResponses, ok, ref } from '../responses';

/** GET /hms_ms/api/v1/translations/:language — every client message of a language (en-GB fallback). */
export default async function translationRoutes(app: FastifyInstance) {
  app.get<{ Params: { language: string } }>(
    '/hms_ms/api/v1/translations/:language',
    {
      config: { public: true },
      // fast-json-stringify cannot build the recursive MessageTree; the texts are our own files.
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        operationId: 'getTranslations',
        tags: ['translations'],
        summary: 'Client messages of a language, missing keys filled from en-GB; unknown language → 404',
        params: ref('api/language-params.schema.json'),
        response: { 200: ok(ref('api/translations.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { language } = request.params;
      if (!isLocale(language)) throw onboardError('ONB_LANGUAGE_NOT_FOUND');
      reply.header('cache-control', 'public, max-age=300');
      return { success: true, data: { language, clientMessages: app.translations.messages(language) } };
    },
  );
}
