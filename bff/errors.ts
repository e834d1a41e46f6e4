import createError, { type FastifyError, type FastifyErrorConstructor } from '@fastify/error';

/**
 * Every error the BFF answers with, defined once (CONVENTIONS "The BFF is plugins and routes").
 * `key` is the translation key (area `errors`) of the message sent to the client in the request's
 * language; `message` is the English text used in logs; `field` names the form field the error belongs to.
 * Wording from SPEC §8.
 */
export const errorDefinitions = {
  ONB_INVALID_INPUT: { status: 400, key: 'errors.invalid_input', message: 'Invalid Input' },
  ONB_FIELD_REQUIRED: {
    status: 400,
    key: 'errors.field_required',
    message: 'This field is required',
  },
  ONB_INVALID_PHONE: {
    status: 400,
    key: 'errors.phone_invalid',
    message: 'Please enter the correct phone number',
    field: 'phone',
  },
  ONB_IDENTIFIER_INCOMPLETE: {
    status: 400,
    key: 'shell.validation.identifier_length',
    message: 'Please enter the full number',
  },
  ONB_IDENTIFIER_FORMAT: {
    status: 400,
    key: 'shell.validation.identifier_pattern',
    message: 'Please check the format of the number',
  },
  ONB_IDENTIFIER_CHECKSUM: {
    status: 400,
    key: 'shell.validation.identifier_checksum',
    message: 'This number is not valid. Please check it for typos',
  },
  ONB_NUMBER_RANGE: {
    status: 400,
    key: 'errors.number_range',
    message: 'Enter a whole number from {{min}} to {{max}}',
  },
  ONB_INVALID_EMAIL: {
    status: 400,
    key: 'errors.email_invalid',
    message: 'Please enter the correct email ID',
  },
  ONB_EMAIL_IN_USE: {
    status: 409,
    key: 'errors.email_in_use',
    message: 'This email is already in use. Please use a different one.',
  },
  ONB_PASSWORD_RULES: {
    status: 400,
    key: 'errors.password_invalid',
    message: 'Please enter the correct password',
    field: 'password',
  },
  ONB_PASSWORD_COMMON: {
    status: 400,
    key: 'errors.password_common',
    message: 'This password is too common. Please choose another one.',
    field: 'password',
  },
  ONB_PASSWORD_MISMATCH: {
    status: 400,
    key: 'errors.password_mismatch',
    message: 'Password is not matched!',
    field: 'password_confirmation',
  },
  ONB_WRONG_PASSWORD: {
    status: 400,
    key: 'errors.password_invalid',
    message: 'Please enter the correct password',
    field: 'current_password',
  },
  ONB_INVALID_CREDENTIALS: {
    status: 400,
    key: 'errors.invalid_credentials',
    message: 'Please enter the correct email ID and password',
    field: 'password',
  },
  ONB_RESET_LINK_INVALID: {
    status: 400,
    key: 'errors.reset_link_invalid',
    message: 'This link has expired or has already been used. Please ask for a new one.',
    field: 'token',
  },
  ONB_ROLE_MISMATCH: {
    status: 403,
    key: 'errors.role_mismatch',
    message: 'This account is not registered with the role you chose. Please sign in with the other option.',
    field: 'role',
  },
  ONB_ROLE_FORBIDDEN: {
    status: 403,
    key: 'errors.forbidden',
    message: 'You do not have rights to view/modify',
  },
  ONB_MANDATORY_AMENITIES: {
    status: 400,
    key: 'errors.mandatory_amenities_missing',
    message: 'Please select every mandatory amenity. Still missing: {{missing}}',
    field: 'amenities',
  },
  ONB_ROOM_COUNT_MISMATCH: {
    status: 400,
    key: 'errors.room_count_mismatch',
    message: 'The room counts add up to {{sum}}, but the property has {{total}} rooms',
    field: 'room_categories',
  },
  ONB_BASIC_INFO_FIRST: {
    status: 400,
    key: 'errors.basic_info_first',
    message: 'Please fill in basic info first',
    field: 'room_categories',
  },
  ONB_COUNTRY_LOCKED: {
    status: 400,
    key: 'errors.country_locked',
    message:
      'The property must be in {{country}}, the country of your account. Please select a location there.',
    field: 'country',
  },
  ONB_NOT_SERVICEABLE: {
    status: 422,
    key: 'errors.not_serviceable',
    message: 'We are not operational in this area. Please select correct location.',
  },
  ONB_UNSUPPORTED_PROPERTY: {
    status: 422,
    key: 'errors.unsupported_property',
    message: 'We do not list this type of property here yet. Please choose another property type.',
    field: 'property_sub_type',
  },
  ONB_LOCATION_DIFFERS: {
    status: 409,
    key: 'errors.location_differs',
    message: 'The pin is {{distance_km}} km from {{city}}. Is the pin at your property?',
  },
  ONB_POSSIBLE_DUPLICATE: {
    status: 409,
    key: 'errors.possible_duplicate',
    message: 'Is this your property?',
  },
  ONB_POSSIBLE_DUPLICATE_OWN: {
    status: 409,
    key: 'errors.possible_duplicate',
    message: 'Is this your property?',
  },
  ONB_LEAD_LOCKED: {
    status: 409,
    key: 'errors.lead_locked',
    message: 'This property can no longer be removed.',
  },
  ONB_IMAGE_UPLOAD_DISABLED: {
    status: 403,
    key: 'errors.image_upload_disabled',
    message: 'You are not allowed to upload images',
  },
  ONB_IMAGE_TOO_LARGE: {
    status: 413,
    key: 'errors.image_too_large',
    message: 'Please upload a photo smaller than 10 MB',
    field: 'file',
  },
  ONB_IMAGE_FORMAT: {
    status: 415,
    key: 'errors.image_format',
    message: 'Please upload a .jpg, .jpeg or .png photo',
    field: 'file',
  },
  ONB_IMAGE_UPLOAD_FAILED: {
    status: 422,
    key: 'errors.image_upload_failed',
    message: 'Image Upload Failed. Please try again.',
    field: 'file',
  },
  ONB_IMAGE_DUPLICATE: {
    status: 409,
    key: 'errors.image_duplicate',
    message: 'This image has already been uploaded. Please re-upload a new image',
    field: 'file',
  },
  ONB_IMAGE_FIELDS_FIRST: {
    status: 400,
    key: 'errors.image_fields_first',
    message: 'Send the category and client_upload_id fields before the file',
    field: 'file',
  },
  ONB_IMAGE_DELETE_NOT_RECENT: {
    status: 409,
    key: 'errors.image_delete_not_recent',
    message: 'You can only delete images that were recently uploaded',
  },
  ONB_IMAGE_NOT_FOUND: {
    status: 404,
    key: 'errors.image_not_found',
    message: "We couldn't find this photo",
  },
  ONB_KYC_DOCUMENT_NOT_FOUND: {
    status: 404,
    key: 'errors.kyc_document_not_found',
    message: "We couldn't find this document",
  },
  ONB_KYC_DOCUMENT_TOO_SMALL: {
    status: 422,
    key: 'errors.kyc_document_too_small',
    message:
      'The photo of the document is too small. Please take it closer: at least {{min}} pixels on each side.',
    field: 'document',
  },
  ONB_KYC_DOCUMENT_REQUIRED: {
    status: 400,
    key: 'errors.kyc_document_required',
    message: 'Please upload a photo of the ID document you chose',
    field: 'document',
  },
  ONB_KYC_DOCUMENT_PENDING: {
    status: 409,
    key: 'errors.kyc_document_pending',
    message: 'We are still reading your document. Please try again in a moment.',
    field: 'document',
  },
  ONB_KYC_ID_TYPE_MISMATCH: {
    status: 422,
    key: 'errors.kyc_id_type_mismatch',
    message: 'Uploaded Image is of different IdType',
    field: 'document',
  },
  ONB_KYC_NUMBER_MISMATCH: {
    status: 422,
    key: 'errors.kyc_number_mismatch',
    message:
      'The number on your document does not match the number you entered. Please check it, or upload your own document.',
  },
  ONB_KYC_NUMBER_UNREADABLE: {
    status: 422,
    key: 'errors.kyc_number_unreadable',
    message:
      'We could not read the number on your document. Please upload a clearer photo of the whole document.',
  },
  ONB_KYC_DOCUMENT_UNREADABLE: {
    status: 422,
    key: 'errors.kyc_document_unreadable',
    message: 'We could not read this document. Please upload a sharper photo of the whole document.',
    field: 'document',
  },
  ONB_PHONE_NOT_VERIFIED: {
    status: 400,
    key: 'errors.phone_not_verified',
    message: 'Please verify your contact number with the code we send',
    field: 'contact_phone',
  },
  ONB_EMAIL_NOT_VERIFIED: {
    status: 400,
    key: 'errors.email_not_verified',
    message: 'Please verify your e-mail address with the code we send',
    field: 'email_address',
  },
  ONB_CONTRACT_NOT_FOUND: {
    status: 404,
    key: 'errors.contract_not_found',
    message: "We couldn't find this contract",
  },
  ONB_CONTRACT_DETAILS_MISSING: {
    status: 400,
    key: 'errors.contract_details_missing',
    message: 'Please complete basic info and the address of your property before the contract',
  },
  ONB_CONTRACT_CONSENT_REQUIRED: {
    status: 400,
    key: 'errors.contract_consent_required',
    message: 'Please tick the box to confirm that you have read and accept the contract',
    field: 'consent',
  },
  ONB_CONTRACT_OUTDATED: {
    status: 409,
    key: 'errors.contract_outdated',
    message:
      "Your property's details have changed since this contract was made. Please open the new contract.",
  },
  ONB_OTP_INCORRECT: {
    status: 400,
    key: 'errors.otp_incorrect',
    message: 'Incorrect OTP',
    field: 'otp',
  },
  ONB_OTP_EXPIRED: {
    status: 400,
    key: 'errors.otp_expired',
    message: 'This code has expired. Please request a new one.',
    field: 'otp',
  },
  ONB_OTP_TOO_MANY_ATTEMPTS: {
    status: 400,
    key: 'errors.otp_too_many_attempts',
    message: 'Too many incorrect attempts. Please request a new code.',
    field: 'otp',
  },
  ONB_OTP_SEND_FAILED: {
    status: 502,
    key: 'errors.otp_send_failed',
    message: "We couldn't send the code. Please try again in a few minutes.",
  },
  ONB_NO_PROFILE_SWITCH: {
    status: 409,
    key: 'errors.no_profile_switch',
    message:
      'There is no other profile to switch to, or the time to switch has run out. Please verify the e-mail address or phone number again.',
  },
  ONB_PUBLISH_NOT_READY: {
    status: 422,
    key: 'errors.publish_not_ready',
    message: 'Please complete every task and delete rejected photos before publishing',
  },
  ONB_SUPPORT_MESSAGE_EMPTY: {
    status: 400,
    key: 'errors.support_message_empty',
    message: 'Please write a message',
    field: 'body',
  },
  ONB_SUPPORT_RATE_LIMITED: {
    status: 429,
    key: 'errors.support_rate_limited',
    message: 'You are sending messages too quickly. Please wait {{seconds}} seconds.',
    field: 'body',
  },
  ONB_SUPPORT_CONVERSATION_NOT_FOUND: {
    status: 404,
    key: 'errors.support_conversation_not_found',
    message: "We couldn't find this conversation",
  },
  ONB_STAFF_UNAUTHORIZED: {
    status: 401,
    key: 'errors.staff_unauthorized',
    message: 'A valid support staff token is required',
  },
  ONB_SSO_NOT_CONFIGURED: {
    status: 404,
    key: 'screens.sso.errors.not_configured',
    message: 'Signing in from the main app is not available here. Please sign in with your phone number.',
  },
  ONB_SSO_TOKEN_INVALID: {
    status: 400,
    key: 'screens.sso.errors.invalid',
    message: 'This sign-in link is not valid. Please open property onboarding again from the main app.',
    field: 'token',
  },
  ONB_SSO_TOKEN_UNTRUSTED: {
    status: 400,
    key: 'screens.sso.errors.invalid',
    message: 'This sign-in link is not valid. Please open property onboarding again from the main app.',
    field: 'token',
  },
  ONB_SSO_TOKEN_LIFETIME: {
    status: 400,
    key: 'screens.sso.errors.invalid',
    message: 'This sign-in link is not valid. Please open property onboarding again from the main app.',
    field: 'token',
  },
  ONB_SSO_TOKEN_EXPIRED: {
    status: 400,
    key: 'screens.sso.errors.expired',
    message: 'This sign-in link has expired. Please open property onboarding again from the main app.',
    field: 'token',
  },
  ONB_SSO_TOKEN_USED: {
    status: 409,
    key: 'screens.sso.errors.used',
    message:
      'This sign-in link has already been used. Please open property onboarding again from the main app.',
    field: 'token',
  },
  ONB_SSO_CLAIMS_MISSING: {
    status: 400,
    key: 'screens.sso.errors.claims_missing',
    message: 'This sign-in link does not say who you are. Please sign in with your phone number.',
    field: 'token',
  },
  ONB_SSO_NO_ACCOUNT: {
    status: 404,
    key: 'screens.sso.errors.no_account',
    message: "We couldn't find an owner account for you. Please sign in with your phone number.",
  },
  ONB_SSO_NOT_OWNER: {
    status: 403,
    key: 'errors.phone_not_registered',
    message: "This number is not registered as an Owner's number... login with Owner credentials",
  },
  ONB_SSO_KEYS_UNAVAILABLE: { status: 503, key: 'errors.internal', message: 'Service Unavailable' },
  ONB_UNAUTHORIZED: { status: 401, key: 'errors.session_expired', message: 'Session Expired' },
  ONB_FORBIDDEN_ORIGIN: {
    status: 403,
    key: 'errors.forbidden',
    message: 'You do not have rights to view/modify',
  },
  ONB_NOT_FOUND: { status: 404, key: 'errors.not_found', message: "We couldn't find the page" },
  // A path some route answers, asked with another method (RFC 9110 §15.5.6; `Allow` names the methods).
  ONB_METHOD_NOT_ALLOWED: { status: 405, key: 'errors.not_found', message: 'Method Not Allowed' },
  ONB_SCREEN_NOT_FOUND: { status: 404, key: 'errors.not_found', message: "We couldn't find the page" },
  // Staff API of the screens' versions (issue 16 item 3): staff read error.code and error.details.
  ONB_SCREEN_VERSION_NOT_FOUND: {
    status: 404,
    key: 'errors.not_found',
    message: 'No such version of this screen',
  },
  ONB_SCREEN_DEFINITION_INVALID: {
    status: 400,
    key: 'errors.invalid_input',
    message: 'The screen definition is refused: see error.details.reasons',
  },
  // Reminders by web push (issue 15 item 5).
  ONB_REMINDERS_OFF: {
    status: 404,
    key: 'errors.reminders_off',
    message: 'Reminders are not available right now.',
  },
  ONB_PUSH_SUBSCRIPTION_NOT_FOUND: {
    status: 404,
    key: 'errors.not_found',
    message: 'This account has no such push subscription',
  },
  ONB_LANGUAGE_NOT_FOUND: { status: 404, key: 'errors.not_found', message: "We couldn't find the page" },
  ONB_LEAD_NOT_FOUND: {
    status: 404,
    key: 'errors.lead_not_found',
    message: "We couldn't find this property",
  },
  ONB_REFERRAL_INVALID: {
    status: 422,
    key: 'errors.referral_invalid',
    message: 'This referral code is not valid. Please check it and try again.',
    field: 'referral_code',
  },
  ONB_LISTING_NOT_PUBLISHED: {
    status: 409,
    key: 'errors.listing_not_published',
    message: 'This property is not live yet. Publish it first.',
  },
  ONB_IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    key: 'errors.idempotency_key_reused',
    message: 'This request key was already used for a different request. Please try again.',
  },
  ONB_LISTING_NOT_INACTIVE: {
    status: 409,
    key: 'errors.listing_not_inactive',
    message: 'Only an inactive listing can be reactivated or removed.',
  },
  ONB_RECONTRACT_REQUIRED: {
    status: 409,
    key: 'errors.recontract_required',
    message: 'This listing has been inactive too long. Please sign a new contract to reactivate it.',
  },
  ONB_ASSOCIATION_NOT_CONFIRMED: {
    status: 400,
    key: 'errors.association_not_confirmed',
    message: 'Please confirm that you are no longer associated with this property.',
    field: 'no_association',
  },
  ONB_SECTION_NOT_FOUND: { status: 404, key: 'errors.not_found', message: "We couldn't find the page" },
  ONB_PHONE_NOT_REGISTERED: {
    status: 404,
    key: 'errors.phone_not_registered',
    message: "This number is not registered as an Owner's number... login with Owner credentials",
    field: 'phone',
  },
  ONB_VERSION_CONFLICT: {
    status: 409,
    key: 'errors.version_conflict',
    message: 'This section was changed on another device or tab. The latest version has been loaded.',
  },
  ONB_OTP_RATE_LIMITED: {
    status: 429,
    key: 'errors.try_later',
    message: 'Please try after some time.',
    field: 'phone',
  },
  ONB_OTP_RESEND_COOLDOWN: {
    status: 429,
    key: 'errors.otp_resend_wait',
    message: 'Please wait {{seconds}} seconds before asking for a new code.',
    field: 'phone',
  },
  ONB_RATE_LIMITED: { status: 429, key: 'errors.try_later', message: 'Please try after some time.' },
  ONB_SOCIAL_PROVIDER_UNKNOWN: {
    status: 404,
    key: 'screens.social_login.errors.provider_unknown',
    message: 'This way of signing in is not available.',
  },
  ONB_SOCIAL_LOGIN_FAILED: {
    status: 400,
    key: 'screens.social_login.errors.failed',
    message: 'Signing in with {{provider}} did not work. Please try again.',
  },
  ONB_SOCIAL_EMAIL_UNVERIFIED: {
    status: 409,
    key: 'screens.social_login.errors.email_unverified',
    message:
      'Your {{provider}} e-mail address is not verified. Please sign in another way first, then link {{provider}} from Account.',
  },
  ONB_SOCIAL_ALREADY_LINKED: {
    status: 409,
    key: 'screens.social_login.errors.already_linked',
    message: 'This {{provider}} account is already linked to another profile.',
  },
  ONB_SOCIAL_NOT_OWNER: {
    status: 403,
    key: 'screens.social_login.errors.not_owner',
    message: "This account is not registered as an Owner's account. Please login with Owner credentials.",
  },
  ONB_SOCIAL_PROVIDER_UNAVAILABLE: {
    status: 502,
    key: 'errors.internal',
    message: 'The sign-in provider could not be reached',
  },
  ONB_TRUECALLER_PENDING: {
    status: 409,
    key: 'screens.social_login.errors.truecaller_pending',
    message: 'No callback received',
  },
  ONB_TRUECALLER_REJECTED: {
    status: 400,
    key: 'screens.social_login.errors.truecaller_rejected',
    message: 'Truecaller did not verify your number. Please sign in with a code.',
  },
  ONB_TRUECALLER_ENDPOINT_REFUSED: {
    status: 400,
    key: 'errors.invalid_input',
    message: 'Invalid Input',
  },
  ONB_INTERNAL: { status: 500, key: 'errors.internal', message: 'Internal Server Error' },
  ONB_NOT_READY: { status: 503, key: 'errors.internal', message: 'Service Unavailable' },
  /** The database did not answer in time or refused the connection (issue 14 item 4); sent with Retry-After. */
  ONB_DATABASE_UNAVAILABLE: { status: 503, key: 'errors.internal', message: 'Service Unavailable' },
  /** Event-loop delay or memory past its limit (@fastify/under-pressure, issue 14 item 4); sent with Retry-After. */
  ONB_UNDER_PRESSURE: { status: 503, key: 'errors.internal', message: 'Service Unavailable' },
} as const satisfies Record<string, { status: number; key: string; message: string; field?: string }>;

/** One of the codes above (`ONB_…`), sent as `error.code`. */
export type ErrorCode = keyof typeof errorDefinitions;

/** An error of ours: a @fastify/error with interpolation values for the translated message. */
export interface OnboardError extends FastifyError {
  code: ErrorCode;
  statusCode: number;
  /** Values for `{{name}}` placeholders of the message (e.g. `{ seconds: 12 }`). */
  values?: Record<string, string | number>;
  /**
   * Values given as translation keys: each list is translated in the request's language and joined with
   * ', ' (e.g. the labels of the amenities still missing).
   */
  valueKeys?: Record<string, string[]>;
  /**
   * Values given as ISO 3166-1 alpha-2 codes, shown as the country's name in the request's language
   * (`Intl.DisplayNames`), e.g. 'India' / 'الهند' for IN (issue 12 item 19).
   */
  regionValues?: Record<string, string>;
  /** Overrides the definition's field. */
  field?: string;
  /** Seconds the client should wait before retrying (429 and 503); also sent as `Retry-After`. */
  retryAfterS?: number;
  /** Structured data for the screen, sent as `error.details` (e.g. the matches of 'Is this your property?'). */
  details?: Record<string, unknown>;
}

const constructors = Object.fromEntries(
  Object.entries(errorDefinitions).map(([code, def]) => [code, createError(code, def.message, def.status)]),
) as Record<ErrorCode, FastifyErrorConstructor>;

/**
 * Creates the error for `code` (throw it from a route; the one error handler turns it into
 * `{ success: false, error: { code, message, field? } }` with the definition's HTTP status).
 */
export function onboardError(
  code: ErrorCode,
  extra: {
    values?: Record<string, string | number>;
    valueKeys?: Record<string, string[]>;
    regionValues?: Record<string, string>;
    field?: string;
    retryAfterS?: number;
    details?: Record<string, unknown>;
  } = {},
): OnboardError {
  const err = new constructors[code]() as OnboardError;
  if (extra.valueKeys) err.valueKeys = extra.valueKeys;
  if (extra.regionValues) err.regionValues = extra.regionValues;
  if (extra.values) {
    err.values = extra.values;
    err.message = err.message.replace(/\{\{(\w+)\}\}/g, (m, k: string) => String(extra.values?.[k] ?? m));
  }
  if (extra.field) err.field = extra.field;
  if (extra.retryAfterS !== undefined) err.retryAfterS = extra.retryAfterS;
  if (extra.details) err.details = extra.details;
  return err;
}

/** True when `err` is one of ours (its code is in {@link errorDefinitions}). */
export function isOnboardError(err: unknown): err is OnboardError {
  return (
    !!err &&
    typeof err === 'object' &&
    typeof (err as { code?: unknown }).code === 'string' &&
    Object.hasOwn(errorDefinitions, (err as { code: string }).code)
  );
}
