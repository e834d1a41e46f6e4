/**
 * A loader that runs `load` on its first call and keeps what it gives (issue 13 item 5: nothing heavy at
 * start that the first request does not need). For npm packages that only some requests use — image
 * decoding, text recognition, PostgreSQL, Redis, mail, web push, sign-in with a provider — imported with
 * `import()` when first needed rather than by every start. Concurrent first calls share one load; a load that
 * failed is tried again on the next call.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}
