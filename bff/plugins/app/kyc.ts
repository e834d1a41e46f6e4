import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createDatabaseImageStorage, type ImageStorage } from '../../services/image-storage';
import { createKycService, type KycService, type VerifiedContacts } from '../../services/kyc';
import { createTextRecogniser, type TextRecogniser } from '../../services/ocr';

declare module 'fastify' {
  interface FastifyInstance {
    /** The KYC task of the signed-in user's properties (SPEC §3 KYC). */
    kyc: KycService;
  }
}

/** Options: the configuration, the clock, verified contacts, and storage / recogniser to use instead of the defaults. */
export interface KycPluginOptions {
  config: Config;
  now: () => number;
  contacts: VerifiedContacts;
  storage?: ImageStorage;
  recogniser?: TextRecogniser;
}

/**
 * Decorates `app.kyc` over `app.db`: document copies in table stored_files (keys `kyc/…`), text recognition
 * with tesseract.js (its worker starts with the first document and ends with the server). Documents left
 * `processing` by a restart are recognised again once the server is ready.
 */
export default fp<KycPluginOptions>(
  async (app, { now, contacts, storage, recogniser }) => {
    const ocr = recogniser ?? createTextRecogniser();
    const service = createKycService(app.db, {
      storage: storage ?? createDatabaseImageStorage(app.db),
      recogniser: ocr,
      contacts,
      translate: (locale, key) => app.translations.translate(locale, key),
      now,
      log: app.log,
    });
    app.decorate('kyc', service);
    const resume = async () => {
      const pending = await service.resumePending();
      if (pending > 0) app.log.info({ pending }, 'kyc documents queued for text recognition again');
    };
    app.addHook('onReady', async () => {
      // The server listens before its database is migrated (issue 13 item 5): resume once it is.
      if (app.dbReadiness.ready) return resume();
      app.dbReadiness.whenReady
        .then(resume)
        .catch((err: unknown) => app.log.error({ err }, 'kyc resume failed'));
    });
    app.addHook('onClose', async () => {
      await service.idle();
      await ocr.close();
    });
  },
  { name: 'kyc', dependencies: ['db', 'translations'] },
);
