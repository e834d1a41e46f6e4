import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Locale, UserDetails } from '../../schemas/generated/types';
import type { Database, UserRow } from '../db/schema';
import { fallbackLocale, isLocale } from './translations';

/** The role of an owner account (SPEC §6: OWNER maps to Owner_Portal_User). */
export const OWNER_ROLE = 'Owner_Portal_User' as const;

const roles = ['Owner_Portal_User', 'Employee', 'PropertyManager'] as const;

/** Converts a `users` row to the wire shape (SPEC §3 user details). */
export function toUserDetails(row: UserRow): UserDetails {
  return {
    id: row.id,
    team: row.team,
    email: row.email,
    phone: row.phone,
    country_code: row.country_code,
    language: isLocale(row.language) ? row.language : fallbackLocale,
    devise_role: (roles as readonly string[]).includes(row.devise_role)
      ? (row.devise_role as UserDetails['devise_role'])
      : 'Employee',
  };
}

/** Reading and creating users. */
export interface UserRepository {
  /** The user with this E.164 number, or undefined. */
  findByPhone(phone: string): Promise<UserRow | undefined>;
  /** The user with this id, or undefined. */
  findById(id: string): Promise<UserRow | undefined>;
  /**
   * The owner account for `phone`, created (role Owner_Portal_User) when none exists (SPEC §4 sign-up).
   * An existing account of any role is returned unchanged. Safe under concurrent calls.
   */
  findOrCreateOwner(input: { phone: string; country_code: string; language: Locale }): Promise<UserRow>;
}

/** Creates the repository over `db`. */
export function createUserRepository(db: Kysely<Database>): UserRepository {
  const findByPhone = (phone: string) =>
    db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst();
  return {
    findByPhone,
    findById: (id) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    async findOrCreateOwner(input) {
      await db
        .insertInto('users')
        .values({
          id: randomUUID(),
          phone: input.phone,
          country_code: input.country_code,
          language: input.language,
          devise_role: OWNER_ROLE,
          email: null,
          team: null,
        })
        .onConflict((oc) => oc.column('phone').doNothing())
        .execute();
      const row = await findByPhone(input.phone);
      if (!row) throw new Error('user vanished after insert');
      return row;
    },
  };
}
