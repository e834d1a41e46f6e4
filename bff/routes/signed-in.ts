import type { FastifyRequest } from 'fastify';
import type { UserDetails } from '../../schemas/generated/types';
import { onboardError } from '../errors';

/**
 * The signed-in user of a route that needs a session. The session gate (plugins/app/sessions.ts) has
 * already answered 401 without one; this also answers 401 ONB_UNAUTHORIZED (SPEC §6) if it is ever reached
 * without a user, rather than trusting a non-null assertion.
 */
export function userOf(request: FastifyRequest): UserDetails {
  if (!request.user) throw onboardError('ONB_UNAUTHORIZED');
  return request.user;
}
