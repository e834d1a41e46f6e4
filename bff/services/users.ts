import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Locale, UserDetails } from '../../schemas/generated/types';
import type { Database, UserRow } from '../db/schema';
import { fallbackLocale, isLocale } from './translations';

/** The role of an owner account (SPEC §6: OWNER maps to Owner_Portal_User). */
export const OWNER_ROLE = 'Owner_Portal_User' as const;

/** The role of a property manager (SPEC §6: PM maps to PropertyManager); refused on every owner route. */
export const MANAGER_ROLE = 'PropertyManager' as const;

const roles = ['Owner_Portal_User', 'Employee', 'PropertyManager'] as const;

/** The sign-in choice of the login screen (SPEC §6): an owner or a property manager. */
export type SignInRoleChoice = 'OWNER' | 'PM';

/** SPEC §6: the sign-in choice PM maps to PropertyManager, OWNER to Owner_Portal_User. */
export function roleOfChoice(choice: SignInRoleChoice): typeof OWNER_ROLE | typeof MANAGER_ROLE {
  return choice === 'PM' ? MANAGER_ROLE : OWNER_ROLE;
}

/** An e-mail address as stored and compared: trimmed, lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

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
  /** The user whose e-mail is `email` in any case, or undefined. */
  findByEmail(email: string): Promise<UserRow | undefined>;
  /**
   * True when the account proved its e-mail address: `email_verified_at`, or the address verified by a
   * code in the property flow (`contact_verifications`).
   */
  hasVerifiedEmail(user: UserRow): Promise<boolean>;
  /**
   * Creates the owner account of an e-mail sign-up (no phone, address not yet verified) with
   * `passwordHash`, or, when an account with the address exists whose address is not verified and that
   * has no phone (an unfinished sign-up), gives it the new password. Returns the account and whether it
   * is such a pending sign-up; an established account (verified address or a phone) is returned unchanged
   * with `pending: false`. Safe under concurrent calls (unique address).
   */
  startEmailSignUp(input: {
    email: string;
    passwordHash: string;
    country_code: string;
    language: Locale;
  }): Promise<{ user: UserRow; pending: boolean }>;
  /** Marks the account's e-mail address verified now (kept when already set). */
  markEmailVerified(userId: string, at: Date): Promise<void>;
  /** Stores a new password hash. */
  setPasswordHash(userId: string, passwordHash: string): Promise<void>;
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
  const findByEmail = (email: string) =>
    db
      .selectFrom('users')
      .selectAll()
      .where(sql<string>`lower(email)`, '=', normaliseEmail(email))
      .executeTakeFirst();
  const isPending = async (user: UserRow) => user.phone === null && !(await hasVerifiedEmail(user));
  const hasVerifiedEmail = async (user: UserRow) => {
    if (user.email_verified_at) return true;
    if (!user.email) return false;
    const proof = await db
      .selectFrom('contact_verifications')
      .select('id')
      .where('user_id', '=', user.id)
      .where('channel', '=', 'email')
      .where('destination', '=', normaliseEmail(user.email))
      .executeTakeFirst();
    return proof !== undefined;
  };
  return {
    findByPhone,
    findById: (id) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    findByEmail,
    hasVerifiedEmail,
    async startEmailSignUp(input) {
      const email = normaliseEmail(input.email);
      await db
        .insertInto('users')
        .values({
          id: randomUUID(),
          phone: null,
          email,
          country_code: input.country_code,
          language: input.language,
          devise_role: OWNER_ROLE,
          team: null,
          password_hash: input.passwordHash,
          email_verified_at: null,
        })
        .onConflict((oc) =>
          oc
            .expression(sql`lower(email)`)
            .where('email', 'is not', null)
            .doNothing(),
        )
        .execute();
      const user = await findByEmail(email);
      if (!user) throw new Error('user vanished after insert');
      if (!(await isPending(user))) return { user, pending: false };
      if (user.password_hash !== input.passwordHash) {
        await db
          .updateTable('users')
          .set({ password_hash: input.passwordHash })
          .where('id', '=', user.id)
          .execute();
      }
      return { user: { ...user, password_hash: input.passwordHash }, pending: true };
    },
    async markEmailVerified(userId, at) {
      await db
        .updateTable('users')
        .set({ email_verified_at: at })
        .where('id', '=', userId)
        .where('email_verified_at', 'is', null)
        .execute();
    },
    async setPasswordHash(userId, passwordHash) {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    },
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
          email_verified_at: null,
          password_hash: null,
        })
        .onConflict((oc) => oc.column('phone').doNothing())
        .execute();
      const row = await findByPhone(input.phone);
      if (!row) throw new Error('user vanished after insert');
      return row;
    },
  };
}
