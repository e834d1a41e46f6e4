import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';

/**
 * @fastify/multipart for the photo upload only: the upload route registers it in its own scope, so no
 * other route accepts multipart bodies. Streamed (nothing buffered or written to disk by the plugin):
 * one file of at most `maxFileBytes` (busboy stops at the limit and flags the part as truncated, which
 * the image service answers with 413), a few short fields, no more parts.
 */
export default fp<{ maxFileBytes: number }>(
  async (app, { maxFileBytes }) => {
    await app.register(multipart, {
      limits: {
        fileSize: maxFileBytes,
        files: 1,
        fields: 4,
        fieldSize: 200,
        fieldNameSize: 50,
        parts: 5,
        headerPairs: 20,
      },
    });
  },
  { name: 'multipart' },
);
