/**
 * The KYC identifier rules (SPEC §3 KYC, issue 5), shared by the server (ajv formats, schemas/ajv.ts) and
 * the browser (the input widget's `identifier`, renderer/engine/field-validation.ts). Pure functions with no
 * dependencies; each module holds one identifier's published rule.
 */
import type { IdentifierKind } from '../generated/types';
import { checkAadhaar } from './aadhaar';
import { checkDrivingLicence } from './driving-licence';
import { checkGstin } from './gstin';
import { checkPan } from './pan';
import { checkPassport } from './passport';
import type { IdentifierResult } from './result';
import { checkVehicleRc } from './vehicle-rc';
import { checkVoterId } from './voter-id';

export type { IdentifierKind } from '../generated/types';
export type { IdentifierFailure, IdentifierResult } from './result';
export { upperCaseAscii } from './result';
export { checkAadhaar } from './aadhaar';
export { checkDrivingLicence } from './driving-licence';
export { checkGstin, gstinCheckCharacter } from './gstin';
export { checkPan, PAN_HOLDER_TYPES } from './pan';
export { checkPassport } from './passport';
export { checkVehicleRc } from './vehicle-rc';
export { checkVoterId } from './voter-id';
export { verhoeffCheckDigit, verhoeffValid } from './verhoeff';

/**
 * The check of each identifier kind (schemas/common.schema.json IdentifierKind): value → verdict. Never
 * throws; the driving licence is checked against the current year.
 */
export const IDENTIFIER_CHECKS: Record<IdentifierKind, (value: string) => IdentifierResult> = {
  pan: checkPan,
  gstin: checkGstin,
  aadhaar: checkAadhaar,
  voter_id: checkVoterId,
  driving_licence: (value) => checkDrivingLicence(value),
  passport: checkPassport,
  vehicle_rc: checkVehicleRc,
};

/** Every identifier kind, in the order of {@link IDENTIFIER_CHECKS}. */
export const IDENTIFIER_KINDS = Object.keys(IDENTIFIER_CHECKS) as IdentifierKind[];
