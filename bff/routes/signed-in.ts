import type { FastifyRequest } from 'fastify';
import type { UserDetails } from '../../schemas/generated/types';
import { onboardError } from '../errors';
import { MANAGER_ROLE } from '../services/users';

/**
 * The signed-in user of a route that needs a session, whatever the role (sign-out, the account's own
 * password). The session gate (plugins/app/sessions.ts) has already answered 401 without one; this also
 * answers 401 ONB_UNAUTHORIZED (SPEC §6) if it is ever reached without a user, rather than trusting a
 * non-null assertion.
 */
export function signedInUser(request: FastifyRequest): UserDetails {
  if (!request.user) throw onboardError('ONB_UNAUTHORIZED');
  return request.user;
}

/**
 * The signed-in owner of an owner route (leads, photos, KYC, contract, publish, properties, support…):
 * as {@link signedInUser}, and a PropertyManager is refused with 403 ONB_ROLE_FORBIDDEN ('You do not have
 * rights to view/modify'): SPEC §6, the manager role cannot use the onboarding pages, and the BFF refuses
 * it rather than relying on the client hiding them.
 */
export function userOf(request: FastifyRequest): UserDetails {
  const user = signedInUser(request);
  if (user.devise_role === MANAGER_ROLE) throw onboardError('ONB_ROLE_FORBIDDEN');
  return user;
}
