export { ReferralHeader } from './referral-header';
