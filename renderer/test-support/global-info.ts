import type { GlobalInfo } from '../../schemas/generated/types';

/**
 * Global info as GET global_info answers it for an ordinary country (SPEC §7): no downtime, self-onboarding on,
 * chat and the 360 revamp off, India; `overrides` over it.
 */
export function globalInfo(overrides: Partial<GlobalInfo> = {}): GlobalInfo {
  return {
    is_downtime_active: false,
    oyo_360_chat_enabled: false,
    is_self_onboard_enabled: true,
    enable_oyo360_l1_revamp: false,
    country_code: 'IN',
    ...overrides,
  };
}
