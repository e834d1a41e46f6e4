import fp from 'fastify-plugin';
import type { Locale } from '../../../schemas/generated/types';
import { createTranslations, fallbackLocale, isLocale, type Translations } from '../../services/translations';

declare module 'fastify' {
  interface FastifyInstance {
    /** Messages of renderer/i18n/locales, with en-GB fallback. */
    translations: Translations;
  }
  interface FastifyRequest {
    /** Language of this request's messages: the `httpxoyolang` header when supported, else the default. */
    locale: Locale;
  }
}

/** Options: the locales folder (tests use a temporary one) and the default locale. */
export interface TranslationsPluginOptions {
  dir?: string;
  defaultLocale: string;
}

/** Decorates `app.translations` and `request.locale` (SPEC §7 header httpxoyolang). */
export default fp<TranslationsPluginOptions>(
  async (app, opts) => {
    const translations = createTranslations({
      ...(opts.dir ? { dir: opts.dir } : {}),
      onError: (file, err) => app.log.error({ err, file }, 'unreadable translation file'),
    });
    const defaultLocale: Locale = isLocale(opts.defaultLocale) ? opts.defaultLocale : fallbackLocale;
    app.decorate('translations', translations);
    app.decorateRequest('locale', defaultLocale);
    // Synchronous: no promise per request (issue 13 item 6).
    app.addHook('onRequest', (request, _reply, done) => {
      const lang = request.headers.httpxoyolang;
      request.locale = isLocale(lang) ? lang : defaultLocale;
      done();
    });
  },
  { name: 'translations' },
);
