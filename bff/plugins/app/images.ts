import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createDatabaseImageStorage, type ImageStorage } from '../../services/image-storage';
import { createImageService, loadImageRequirements, type ImageService } from '../../services/images';

declare module 'fastify' {
  interface FastifyInstance {
    /** Photos of the signed-in user's properties (SPEC §3 image, §5 photo rules). */
    images: ImageService;
  }
}

/** Options: the configuration, the clock, and a storage to use instead of table stored_files. */
export interface ImagesPluginOptions {
  config: Config;
  now: () => number;
  storage?: ImageStorage;
}

/**
 * Decorates `app.images` over `app.db`: requirements from bff/screens/data/image-requirements.json (with
 * IMAGES_MIN_TOTAL; the server refuses to start when the file is not valid), files in
 * table stored_files (issue 14 item 1), the delete window of IMAGES_DELETE_WINDOW_MS, rejection texts from the
 * translations; every save of a lead's room categories brings its images task up to date in the same
 * transaction. sharp loads with the first photo, set up as `services/image-codecs.ts` says.
 */
export default fp<ImagesPluginOptions>(
  async (app, { config, now, storage }) => {
    const images = createImageService(app.db, {
      storage: storage ?? createDatabaseImageStorage(app.db),
      requirements: loadImageRequirements(config.imagesMinTotal),
      deleteWindowMs: config.imagesDeleteWindowMs,
      translate: (locale, key) => app.translations.translate(locale, key),
      now,
      log: app.log,
    });
    app.decorate('images', images);
    // Room photos are asked per room category: saving the room categories can complete or reopen the task.
    app.leads.onSectionSaved('room_categories', (trx, leadId) => images.syncTask(trx, leadId));
  },
  { name: 'images', dependencies: ['db', 'translations', 'leads'] },
);
