import fp from 'fastify-plugin';
import { createPublishService, type PublishService } from '../../services/publish';

declare module 'fastify' {
  interface FastifyInstance {
    /** Review and publishing of the signed-in user's properties (SPEC §2 review, §4 publish). */
    publish: PublishService;
  }
}

/** Decorates `app.publish` over `app.db` and `app.images`; `now` (ms since the epoch) stamps published_at. */
export default fp<{ now: () => number }>(
  async (app, { now }) => {
    app.decorate(
      'publish',
      createPublishService(app.db, {
        images: app.images,
        translate: (locale, key, values) => app.translations.translate(locale, key, values),
        now,
      }),
    );
  },
  { name: 'publish', dependencies: ['db', 'images', 'translations'] },
);
