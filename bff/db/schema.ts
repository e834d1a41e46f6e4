import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Timestamps are `timestamptz`; read back as Date, written as Date. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** Table `users`: one row per person who signed in (SPEC §3 user details). */
export interface UsersTable {
  /** UUID. */
  id: string;
  /** E.164, unique. */
  phone: string;
  /** ISO2 of the phone number's country. */
  country_code: string;
  email: string | null;
  team: string | null;
  /** Locale code (SPEC §1). */
  language: string;
  /** Owner_Portal_User | Employee | PropertyManager (SPEC §6). */
  devise_role: string;
  created_at: Generated<Timestamp>;
}

/** Table `sessions`: the id is the hex SHA-256 of the cookie token, never the token itself. */
export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  /** Absolute end: created_at + SESSION_ABSOLUTE_MS. */
  expires_at: Timestamp;
  user_agent: string | null;
  ip: string | null;
}

/** Table `otp_codes`: one row per code sent; `code_hash` is an HMAC-SHA256 of the code, never the code. */
export interface OtpCodesTable {
  /** UUID. */
  id: string;
  /** E.164. */
  phone: string;
  /** sign_up | login. */
  purpose: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** Wrong tries so far. */
  attempts: Generated<number>;
  /** Set when used or voided; a consumed code never verifies again. */
  consumed_at: Timestamp | null;
}

/** The typed database for Kysely. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  otp_codes: OtpCodesTable;
}

/** A `users` row as read. */
export type UserRow = Selectable<UsersTable>;
/** A `users` row to insert. */
export type NewUser = Insertable<UsersTable>;
/** An `otp_codes` row as read. */
export type OtpCodeRow = Selectable<OtpCodesTable>;
