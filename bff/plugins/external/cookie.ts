import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';

/** Cookie parsing and setting (sessions: onboard_sid, isLoggedIn). */
export default fp(
  async (app) => {
    await app.register(cookie);
  },
  { name: 'cookie' },
);
