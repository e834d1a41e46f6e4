import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { onboardError } from '../errors';
import { staffTokenMatches } from './support';

/**
 * A preHandler for the staff routes (issue 15 items 2 and 3: error groups, funnel), checked as the support
 * staff API checks its token: `Authorization: Bearer <SUPPORT_STAFF_TOKEN>` (compared in constant time);
 * a missing or wrong token answers 401 ONB_STAFF_UNAUTHORIZED with `WWW-Authenticate`, and no configured
 * token answers 404 (the staff API is off).
 */
export function staffOnly(config: Pick<Config, 'supportStaffToken'>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!config.supportStaffToken) throw onboardError('ONB_NOT_FOUND');
    if (!staffTokenMatches(request.headers.authorization, config.supportStaffToken)) {
      reply.header('www-authenticate', 'Bearer realm="staff"');
      throw onboardError('ONB_STAFF_UNAUTHORIZED');
    }
  };
}

/** The OpenAPI security of the staff routes. */
export const staffSecurity = [{ staffToken: [] }];

/**
 * The staff token of a browser page's request: `Authorization: Basic <user:token>` (any user name, the
 * token as password, so the browser's own sign-in prompt asks for it) or `Bearer <token>`.
 */
function pageToken(header: string | undefined): string | undefined {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? '');
  if (!basic) return header;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : `Bearer ${decoded.slice(colon + 1)}`;
}

/**
 * As {@link staffOnly}, for a page opened in a browser: the token may come as the password of HTTP Basic
 * authentication, and a refusal asks for it (`WWW-Authenticate: Basic`), so the browser shows its sign-in
 * prompt.
 */
export function staffPageOnly(config: Pick<Config, 'supportStaffToken'>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!config.supportStaffToken) throw onboardError('ONB_NOT_FOUND');
    if (!staffTokenMatches(pageToken(request.headers.authorization), config.supportStaffToken)) {
      reply.header('www-authenticate', 'Basic realm="staff", charset="UTF-8"');
      throw onboardError('ONB_STAFF_UNAUTHORIZED');
    }
  };
}
