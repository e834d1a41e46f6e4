import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Campaign parameters (SPEC §3 utm_source, utm_medium, utm_campaign), each at most 100 characters. */
export interface Utm {
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
}

/** Timestamps are `timestamptz`; read back as Date, written as Date. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** Table `users`: one row per person who signed in (SPEC §3 user details). */
export interface UsersTable {
  /** UUID. */
  id: string;
  /** E.164, unique; null for an account made with an e-mail address (migration 0012) or through a provider with no number. */
  phone: string | null;
  /** ISO2 of the phone number's country. */
  country_code: string;
  /** Unique in any case where set (lower-case unique index). */
  email: string | null;
  team: string | null;
  /** When the owner proved `email` by a code or a reset link; a password sign-in needs it (SPEC §5). */
  email_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** argon2id PHC string of the password (m=19456 KiB, t=2, p=1); null without a password. Never sent or logged. */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** Locale code (SPEC §1). */
  language: string;
  /** Owner_Portal_User | Employee | PropertyManager (SPEC §6). */
  devise_role: string;
  /** The campaign of the first sign-in (issue 15 item 6, migration 0023), or null. */
  utm: ColumnType<Utm | null, string | null | undefined, string | null>;
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
  /** Where the code went: an E.164 number, or an e-mail address (trimmed, lower case). */
  destination: string;
  /** sign_up | login | contact_email | contact_phone. */
  purpose: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** Wrong tries so far. */
  attempts: Generated<number>;
  /** Set when used or voided; a consumed code never verifies again. */
  consumed_at: Timestamp | null;
}

/** Table `leads`: one row per property being onboarded (SPEC §3 property / lead). */
export interface LeadsTable {
  /** UUID (wire `lead_id`). */
  id: string;
  /** 'PO' + 10 characters of the upper-case base32 alphabet without I, L, O, U; unique. */
  property_unique_id: string;
  /** The owner: `users.id`. */
  user_id: string;
  /** Name of the property as entered at creation (1–120 characters). */
  title: string;
  /** A value of bff/screens/data/property-types.json `property_types`. */
  property_type: string;
  /** A value of `property_sub_types` whose group is `property_type`. */
  property_sub_type: string;
  /** IN_PROGRESS, COLD (see cold_lead_type), DISCARDED, LIVE or UNDER_REVIEW (published; SPEC §1, §4). */
  status: string;
  created_at: Timestamp;
  /** Changes with every section save. */
  updated_at: Timestamp;
  /** The confirmed pin (WGS 84 degrees) and its city and country (ISO2); null until the address is confirmed. */
  latitude: ColumnType<number | null, number | null | undefined, number | null>;
  longitude: ColumnType<number | null, number | null | undefined, number | null>;
  city: ColumnType<string | null, string | null | undefined, string | null>;
  country: ColumnType<string | null, string | null | undefined, string | null>;
  /** NOT_SERVICEABLE or UNSUPPORTED_PROPERTY for a cold lead (SPEC §4), else null. */
  cold_lead_type: ColumnType<string | null, string | null | undefined, string | null>;
  /** Set by staff in the database: upload and delete of photos refused with 403 (SPEC §5, §6). Default false. */
  image_upload_disabled: Generated<boolean>;
  /** The brand the lead is listed under (bff/screens/data/brands.json by property_type): hotel | holiday_home. */
  brand: Generated<string>;
  /** When the lead was first published (SPEC §4 publish); null before. */
  published_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** UUID of the lead's one listing, set with published_at; unique. */
  listing_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a live listing was switched off (status INACTIVE), set by staff; null otherwise (SPEC §4). */
  inactive_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When the owner removed the inactive listing (status REMOVED); null otherwise. */
  removed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The verified referral code (bff/screens/data/referrers.json), upper case; null until one is saved. */
  /** The campaign of the visit that created the lead (issue 15 item 6, migration 0023), or null. */
  utm: ColumnType<Utm | null, string | null | undefined, string | null>;
  referral_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** The referrer's name as verified with the code. */
  referral_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the referral code was last saved. */
  referral_updated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /**
   * The provider's program the listing is on (SPEC §4 Programs): EWB | OTA; null until the provider's staff
   * set one (migration 0021).
   */
  program: ColumnType<string | null, string | null | undefined, string | null>;
  /** The program's type (SPEC §4): flexible | crystal; null until set by staff. */
  program_type: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Table `lead_sections`: one row per saved section of a lead; primary key (lead_id, section). */
export interface LeadSectionsTable {
  /** `leads.id`. */
  lead_id: string;
  /** Checklist task key (e.g. basic_info). */
  section: string;
  /** jsonb: the section's fields; written as a JSON text, read as an object. */
  data: ColumnType<Record<string, unknown>, string, string>;
  /** 1 after the first save, +1 at every save. */
  version: number;
  completed: boolean;
  updated_at: Timestamp;
  /**
   * jsonb: the section as the live listing shows it; null until the lead is published (migration
   * 0015). Set from `data` by publishing and by submitting the owner's changes.
   */
  live_data: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
}

/** Table `lead_images`: one row per photo the server kept for a lead (SPEC §3 image); unique (lead_id, client_upload_id). */
export interface LeadImagesTable {
  /** UUID (wire `image_id`); also names the stored files, never anything the client sent. */
  id: string;
  /** `leads.id`. */
  lead_id: string;
  /** UUID chosen by the browser for the upload; a retry with the same one answers the stored image. */
  client_upload_id: string;
  /** A category of bff/screens/data/image-requirements.json. */
  category: string;
  /**
   * Name of the lead's room category (section room_categories) the photo shows, for the category split by
   * room category once the lead had some when it was uploaded; else null. Kept as given when the owner
   * later renames or removes the category (the photo then counts only towards the category's total).
   */
  room_category: string | null;
  /** processing | accepted | rejected (SPEC §4). */
  status: string;
  /** VERTICAL | RESOLUTION for a rejected image, else null (SPEC §5). */
  error_type: string | null;
  /** False once deleted (SPEC §4 'Deleting marks inactive'). */
  is_active: boolean;
  /** px after the EXIF orientation. */
  width: number;
  height: number;
  /** Size of the uploaded file in bytes. */
  bytes: number;
  /** Hex SHA-256 of the uploaded bytes (exact duplicates). */
  sha256: string;
  /** 16 hex digits: the 64-bit perceptual hash (sharp-phash) of the oriented picture (near duplicates). */
  phash: string;
  created_at: Timestamp;
  /** When the owner deleted it; null while active. */
  deleted_at: Timestamp | null;
  /**
   * Whether the live listing of the published lead shows it (migration 0021, issue 12 item 2): set to
   * `is_active` (and accepted) when the lead is published and when the owner submits changes; false before.
   * A deleted photo that is live keeps its files until then. Default false.
   */
  is_live: Generated<boolean>;
}

/** Table `lead_kyc_documents`: one row per identity-document photo kept for a lead (SPEC §3 KYC); unique (lead_id, client_upload_id). */
export interface LeadKycDocumentsTable {
  /** UUID (wire `document_id`); also names the stored files. */
  id: string;
  /** `leads.id`. */
  lead_id: string;
  /** UUID chosen by the browser for the upload; a retry with the same one answers the stored document. */
  client_upload_id: string;
  /** The IdType the owner chose (schemas/api/kyc-document.schema.json). */
  id_type: string;
  /** processing | recognised | mismatch | unreadable | failed. */
  status: string;
  /** The IdType the recognised text looks like; null while processing or when none. */
  detected_id_type: string | null;
  /** Mean word confidence of the recognition, 0–100; null while processing. */
  confidence: number | null;
  /** px after the EXIF orientation. */
  width: number;
  height: number;
  /** Size of the uploaded file in bytes. */
  bytes: number;
  created_at: Timestamp;
  /** When recognition gave its verdict. */
  recognised_at: Timestamp | null;
  /**
   * SHA-256 (hex) of the normalised identifier number of `id_type` read on the document; null when none
   * was read (migration 0016). Compared with the number the owner typed by the final KYC save.
   */
  number_sha256: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * Table `lead_contracts`: a contract PDF generated for a lead (SPEC §3 finalContractInfo); unique
 * (lead_id, revision).
 */
export interface LeadContractsTable {
  /** UUID (wire `contract_id`); also names the stored file. */
  id: string;
  /** `leads.id`. */
  lead_id: string;
  /** 1 for the lead's first contract, +1 for each one generated after its details or terms changed. */
  revision: number;
  /** Version of the contract text (e.g. 'v2', SPEC §9 terms of service v2). */
  contract_version: string;
  /** SHA-256 (hex) of the details and terms the PDF was made from; a different one needs a new contract. */
  inputs_sha256: string;
  /** jsonb: the commercial terms written into the contract (schemas/api/commercial-terms.schema.json). */
  terms: ColumnType<Record<string, unknown>, string, string>;
  /** SHA-256 (hex) of the PDF's bytes. */
  sha256: string;
  /** Size of the PDF in bytes. */
  bytes: number;
  created_at: Timestamp;
  /** When, by whom (`users.id`), from which address and user agent the owner accepted it; null until then. */
  accepted_at: Timestamp | null;
  accepted_by: string | null;
  accepted_ip: string | null;
  accepted_user_agent: string | null;
}

/**
 * Table `contact_verifications`: an e-mail address or phone number a user proved by a code (SPEC §3
 * kycDetails is_mail_verified / is_phone_verified); unique (user_id, channel, destination).
 */
export interface ContactVerificationsTable {
  /** UUID. */
  id: string;
  /** `users.id`. */
  user_id: string;
  /** email | phone. */
  channel: string;
  /** Normalised: an address trimmed and in lower case, or an E.164 number. */
  destination: string;
  /** When the code was last verified. */
  verified_at: Timestamp;
}

/**
 * Table `profile_switches`: the switch a session may make to the account a proven destination belongs to
 * (SPEC §6 switching profile); one per session, deleted when used or when the session ends.
 */
export interface ProfileSwitchesTable {
  /** `sessions.id` (primary key). */
  session_id: string;
  /** The other account: `users.id`. */
  target_user_id: string;
  /** email | phone. */
  channel: string;
  /** The proven destination, normalised. */
  destination: string;
  created_at: Timestamp;
  /** created_at + 10 minutes. */
  expires_at: Timestamp;
}

/**
 * Table `password_reset_tokens`: a forgot-password link (SPEC §4, §7 forgot_password). Single use, expires
 * after at most 30 minutes.
 */
export interface PasswordResetTokensTable {
  /** Hex SHA-256 of the token the link carries (the token itself is never stored). */
  id: string;
  /** `users.id`. */
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** Set when used (or voided by a later password change); a used token never works again. */
  used_at: Timestamp | null;
}

/** A `timestamptz` with a default of now(): may be left out on insert. */
type TimestampWithDefault = ColumnType<Date, Date | string | undefined, Date | string>;

/** Table `support_conversations`: one support chat per owner (issue 6 item 7). */
export interface SupportConversationsTable {
  /** UUID. */
  id: string;
  /** The owner: `users.id`, unique. */
  user_id: string;
  created_at: TimestampWithDefault;
  /** Time of the latest message; staff list conversations by it. */
  last_message_at: TimestampWithDefault;
}

/** Table `support_messages`: a message of a support chat. */
export interface SupportMessagesTable {
  /** Increasing integer (identity); the server-sent event id of the owner's stream. */
  id: Generated<number>;
  conversation_id: string;
  /** owner | staff. */
  author: 'owner' | 'staff';
  /** The text, 1–2000 characters after trimming. */
  body: string;
  /** The sender's UUID for the message, unique per conversation (a retried send is not stored twice). */
  client_message_id: string | null;
  created_at: TimestampWithDefault;
}

/**
 * Table `sso_used_tokens`: main-app tokens already exchanged for a session (issue 11 item 4); the primary key
 * `(issuer, jti)` makes each token single use across instances.
 */
export interface SsoUsedTokensTable {
  /** `iss` of the token (SSO_ISSUER). */
  issuer: string;
  /** `jti` of the token, 1–255 characters. */
  jti: string;
  /** `sub`: the main app's id of the person. */
  subject: string;
  /** The user the session was started for (`users.id`); null once that user is deleted, or when refused. */
  user_id: string | null;
  used_at: TimestampWithDefault;
  /** The token's `exp` plus the clock tolerance; the row is purged after it. */
  expires_at: Timestamp;
}

/** The typed database for Kysely. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  otp_codes: OtpCodesTable;
  leads: LeadsTable;
  lead_sections: LeadSectionsTable;
  lead_images: LeadImagesTable;
  lead_kyc_documents: LeadKycDocumentsTable;
  lead_contracts: LeadContractsTable;
  contact_verifications: ContactVerificationsTable;
  profile_switches: ProfileSwitchesTable;
  support_conversations: SupportConversationsTable;
  support_messages: SupportMessagesTable;
  password_reset_tokens: PasswordResetTokensTable;
  sso_used_tokens: SsoUsedTokensTable;
  social_identities: SocialIdentitiesTable;
  social_login_attempts: SocialLoginAttemptsTable;
  truecaller_requests: TruecallerRequestsTable;
  stored_files: StoredFilesTable;
  idempotency_keys: IdempotencyKeysTable;
  analytics_events: AnalyticsEventsTable;
  screen_versions: ScreenVersionsTable;
  screen_releases: ScreenReleasesTable;
  screen_audit: ScreenAuditTable;
  error_groups: ErrorGroupsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_reminders: PushRemindersTable;
}

/**
 * Table `stored_files`: the bytes of a stored file (a photo's or a KYC document's variant, a contract PDF)
 * under its server-made key (migration 0017, issue 14 item 1).
 */
export interface StoredFilesTable {
  key: string;
  /** `Buffer` from `pg`, `Uint8Array` from PGlite. */
  bytes: ColumnType<Uint8Array, Uint8Array, Uint8Array>;
  /** MIME type, e.g. image/jpeg. */
  content_type: string;
  byte_length: number;
  /** Hex SHA-256 of the bytes: the strong ETag. */
  sha256: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/**
 * Table `idempotency_keys`: the first answer of a request sent with an `Idempotency-Key` (migration 0017,
 * issue 14 item 5); primary key (user_id, key).
 */
export interface IdempotencyKeysTable {
  user_id: string;
  /** The header's value (1–255 visible ASCII characters). */
  key: string;
  /** Hex SHA-256 of the request: method, route, parameters and body. */
  fingerprint: string;
  /** The answer's HTTP status; null while no answer is kept (a claim whose work was refused). */
  response_status: number | null;
  /** The answer's body (JSON); null with response_status. */
  response_body: ColumnType<unknown, string | null, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Table `social_identities`: a provider account (`provider` + its `subject`) linked to a user (migration 0013). */
export interface SocialIdentitiesTable {
  /** UUID. */
  id: string;
  /** google | facebook | apple (SPEC §9 login providers). */
  provider: string;
  /** The provider's stable account id (`sub` claim, or Facebook's `id`). */
  subject: string;
  user_id: string;
  /** The provider's e-mail at linking time, when it gave one. */
  email: string | null;
  created_at: Generated<Timestamp>;
}

/**
 * Table `social_login_attempts`: an authorization request in progress (migration 0013). `id` is the hex
 * SHA-256 of `state`; `browser_hash` the hex SHA-256 of the `onboard_oauth` cookie; single use.
 */
export interface SocialLoginAttemptsTable {
  id: string;
  provider: string;
  browser_hash: string;
  nonce: string;
  /** PKCE verifier (RFC 7636), kept only until the code is exchanged. */
  code_verifier: string;
  /** Set when a signed-in owner links the provider to their account (Account screen). */
  link_user_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

/**
 * Table `truecaller_requests`: one Truecaller verification (SPEC §4), `id` = the request nonce of the deep
 * link; `browser_hash` binds it to the browser that asked. Status pending → verified | rejected |
 * used_another_number.
 */
export interface TruecallerRequestsTable {
  id: string;
  browser_hash: string;
  status: Generated<string>;
  /** E.164 number of the verified Truecaller profile. */
  phone: string | null;
  /** ISO2 country of the profile. */
  country_code: string | null;
  email: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

/** A `users` row as read. */
export type UserRow = Selectable<UsersTable>;
/** A `users` row to insert. */
export type NewUser = Insertable<UsersTable>;
/** An `otp_codes` row as read. */
export type OtpCodeRow = Selectable<OtpCodesTable>;
/** A `leads` row as read. */
export type LeadRow = Selectable<LeadsTable>;
/** A `lead_sections` row as read. */
export type LeadSectionRow = Selectable<LeadSectionsTable>;
/** A `lead_images` row as read. */
export type LeadImageRow = Selectable<LeadImagesTable>;
/** A `lead_kyc_documents` row as read. */
export type LeadKycDocumentRow = Selectable<LeadKycDocumentsTable>;
/** A `lead_contracts` row as read. */
export type LeadContractRow = Selectable<LeadContractsTable>;
/** A `contact_verifications` row as read. */
export type ContactVerificationRow = Selectable<ContactVerificationsTable>;
/** A `profile_switches` row as read. */
export type ProfileSwitchRow = Selectable<ProfileSwitchesTable>;
/** A `social_login_attempts` row as read. */
export type SocialLoginAttemptRow = Selectable<SocialLoginAttemptsTable>;
/** A `support_messages` row as read. */
export type SupportMessageRow = Selectable<SupportMessagesTable>;

/**
 * Table `analytics_events` (migrations 0018, 0020; issue 15 item 1): one analytics event, from the browser
 * (POST /analytics/events) or recorded by the BFF where the state changes. Partitioned by day on
 * `occurred_at` (migration 0020). `user_id` null when sent signed out; `properties` scalar values only,
 * never personal data.
 */
export interface AnalyticsEventsTable {
  /** Random UUID made by the BFF (the sink's messageId). */
  id: string;
  user_id: string | null;
  /** The browser's analytics session (UUID); null for events the BFF records. */
  session_id: string | null;
  /** snake_case event name, e.g. screen_view. */
  event: string;
  properties: ColumnType<Record<string, string | number | boolean | null>, string, string>;
  screen_id: string | null;
  /** When it happened, by the browser's clock (server events: the BFF's). */
  occurred_at: Timestamp;
  /** When the BFF stored it. */
  received_at: Generated<Timestamp>;
  /** browser | server. */
  source: Generated<'browser' | 'server'>;
  /** When the sink accepted it; null while not forwarded (or no sink is configured). */
  forwarded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Tries to forward it so far. */
  forward_attempts: Generated<number>;
  /** Not tried again before this (a try in progress, or the back-off after a failed one). */
  forward_after: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Table `error_groups` (migration 0020, issue 15 item 3): client error reports grouped by fingerprint. */
export interface ErrorGroupsTable {
  /** Hex SHA-256 of kind, normalised message and top frame. */
  fingerprint: string;
  /** error | unhandled_rejection | widget_crash | invalid_payload | api_5xx | invalid_event. */
  kind: string;
  /** The scrubbed message of the first report. */
  message: string;
  /** The first frame of the stack (scrubbed), or null without a stack. */
  top_frame: string | null;
  /** Reports received; `pg` reads bigint as text. */
  count: ColumnType<string | number, number | undefined, number>;
  first_seen: Timestamp;
  last_seen: Timestamp;
  /** jsonb: screen, widget, path, status, page of the last report (scrubbed). */
  last_details: ColumnType<Record<string, unknown>, string, string>;
  /** The request id the BFF gave the last report (x-request-id), or the failed API call's. */
  last_request_id: string | null;
}

/** Table `screen_versions` (migration 0019, issue 16 item 3): one uploaded version of a screen's definition. */
export interface ScreenVersionsTable {
  screen_id: string;
  /** 1, 2, … per screen; 0 is the deployed file and is never stored. */
  version: number;
  /** The checked definition document (schemas/screen-definition.schema.json). */
  definition: ColumnType<Record<string, unknown>, string, string>;
  /** Who uploaded it (the staff member named in the request). */
  created_by: string;
  note: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/**
 * Table `screen_releases` (migration 0019): what owners get of a screen. `version` 0 is the file; with a
 * rollout (`rollout_percent` or `rollout_flag`), owners outside it get `previous_version`.
 */
export interface ScreenReleasesTable {
  screen_id: string;
  version: number;
  previous_version: number | null;
  /** 1–99: the share of owners (stable per owner) who get `version`. */
  rollout_percent: number | null;
  /** A feature flag: while it is on, every request gets `version`; while off, `previous_version`. */
  rollout_flag: string | null;
  updated_by: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Table `screen_audit` (migration 0019): every upload, publish and rollback of a screen, with who and when. */
export interface ScreenAuditTable {
  /** Increasing; the highest is the catalogue's change counter. */
  id: Generated<string>;
  screen_id: string;
  /** upload, publish or rollback. */
  action: string;
  version: number;
  /** The rollout of a publish, the previous version of a rollback, the note of an upload. */
  detail: ColumnType<Record<string, unknown>, string, string>;
  actor: string;
  at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Table `push_subscriptions` (migration 0022, issue 15 item 5): a browser's PushSubscription, per owner. */
export interface PushSubscriptionsTable {
  /** UUID. */
  id: string;
  /** The owner: `users.id`. */
  user_id: string;
  /** The push service's URL for this browser (unique; a capability: whoever holds it holds the browser). */
  endpoint: string;
  /** The browser's P-256 public key, base64url (RFC 8291 `ua_public`). */
  p256dh: string;
  /** The 16-byte authentication secret, base64url (RFC 8291 `auth_secret`). */
  auth: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Table `push_reminders` (migration 0022): when the owner was last reminded, and about which property. */
export interface PushRemindersTable {
  /** `users.id`. */
  user_id: string;
  last_sent_at: Timestamp;
  property_unique_id: string;
}
