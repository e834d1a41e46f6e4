import FindMyWay, { type HTTPMethod } from 'find-my-way';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The methods some route answers at `path` (a request's path, without its query), sorted; empty when no
     * route matches it whatever the method. `HEAD` is listed with `GET`.
     */
    allowedMethods(path: string): string[];
  }
}

/**
 * Which methods a path answers, so that a request with another method is refused as RFC 9110 §15.5.6 says:
 * 405 with `Allow` (the not-found handler, plugins/external/static.ts), not 404 as for a path no route has.
 * Every route registered after this plugin is added, method and URL, to a find-my-way router of its own (the
 * router Fastify uses, with the app's trailing-slash rule); it is only asked on that rare path.
 */
export default fp(
  async (app) => {
    const router = FindMyWay({ ignoreTrailingSlash: true });
    const methods = new Set<HTTPMethod>();
    const noop = () => undefined;
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        const name = method.toUpperCase() as HTTPMethod;
        // Fastify adds a HEAD route for each GET one; a route seen twice is kept once.
        if (router.hasRoute(name, route.url)) continue;
        router.on(name, route.url, noop);
        methods.add(name);
      }
    });
    app.decorate('allowedMethods', (path: string) => {
      const allowed = new Set<string>([...methods].filter((method) => router.find(method, path)));
      if (allowed.has('GET')) allowed.add('HEAD');
      return [...allowed].sort();
    });
  },
  { name: 'allowed-methods' },
);
