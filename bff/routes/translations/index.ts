import type { FastifyInstance } from 'fastify';
import { onboardError } from '../../errors';
import type { Locale } from '../../../schemas/generated/types';
import { isLocale } from '../../services/translations';
import { keptAnswer, sendKept, type KeptAnswer } from '../kept-answer';
import { notModifiedResponse } from '../stored-files';
import { errorResponses, ok, ref } from '../responses';

/**
 * GET /hms_ms/api/v1/translations/:language — every client message of a language (en-GB fallback); unknown
 * language → 404 ONB_LANGUAGE_NOT_FOUND. The same for everyone (issue 13 item 6): each language's answer is
 * made once and kept with its ETag and compressed copies ({@link sendKept}); `Cache-Control: public,
 * max-age=300`, then revalidated (If-None-Match → 304).
 */
export default async function translationRoutes(app: FastifyInstance) {
  const kept = new Map<Locale, KeptAnswer>();
  app.get<{ Params: { language: string } }>(
    '/hms_ms/api/v1/translations/:language',
    {
      config: { public: true },
      // fast-json-stringify cannot build the recursive MessageTree; the texts are our own files.
      serializerCompiler: () => (data) => JSON.stringify(data),
      // Sent compressed from the kept copies (sendKept).
      compress: false,
      schema: {
        operationId: 'getTranslations',
        tags: ['translations'],
        summary: 'Client messages of a language, missing keys filled from en-GB; unknown language → 404',
        description:
          'Cache-Control: public, max-age=300, with a strong ETag: 304 without a body when If-None-Match names it.',
        params: ref('api/language-params.schema.json'),
        response: {
          200: ok(ref('api/translations.schema.json')),
          304: notModifiedResponse,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { language } = request.params;
      if (!isLocale(language)) throw onboardError('ONB_LANGUAGE_NOT_FOUND');
      let answer = kept.get(language);
      if (!answer) {
        const clientMessages = app.translations.messages(language);
        answer = keptAnswer(reply.serialize({ success: true, data: { language, clientMessages } }) as string);
        kept.set(language, answer);
      }
      return sendKept(request, reply, answer, {
        cacheControl: 'public, max-age=300',
        vary: 'accept-encoding',
        type: 'application/json; charset=utf-8',
      });
    },
  );
}
