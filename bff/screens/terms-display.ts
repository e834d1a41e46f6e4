import type { TermsOfService } from '../../schemas/generated/types';
import { formatDate, formatMoney, formatPercent } from '../services/locale-format';

/**
 * The commercial terms of a lead as the terms screen prints them in the owner's language (issue 12 item 16):
 * rates with Intl percent ('18%', '18 %'), the one-time fee with Intl currency ('₹0.00', '0,00 ₹'), the
 * contract period and the acceptance day as SPEC §9 dates (day numeric, month short, year numeric).
 * Bound by the terms screen as `terms_display.*`; the contract PDF uses the same formatting.
 */
export interface TermsDisplay {
  commission: string;
  oyo_channel: string;
  walkin_channel: string;
  ota_fee: string;
  service_fee: string;
  channel_fee: string;
  total_fee: string;
  fee: string;
  start: string;
  end: string;
  /** The day the latest contract was accepted, or null. */
  accepted_on: string | null;
}

/** {@link TermsDisplay} of `contract` in `locale`. */
export function termsDisplay(contract: TermsOfService, locale: string): TermsDisplay {
  const { terms, date_range: range } = contract.terms_of_service_info;
  const pct = (n: number) => formatPercent(n, locale);
  const accepted = contract.final_contract_info?.accepted_at;
  return {
    commission: pct(terms.commission),
    oyo_channel: pct(terms.oyo_channel),
    walkin_channel: pct(terms.walkin_channel),
    ota_fee: pct(terms.ota_fee),
    service_fee: pct(terms.service_fee),
    channel_fee: pct(terms.channel_fee),
    total_fee: pct(terms.total_fee),
    fee: formatMoney(terms.fee, terms.currency, locale),
    start: formatDate(range.start, locale),
    end: formatDate(range.end, locale),
    accepted_on: accepted ? formatDate(accepted, locale) : null,
  };
}
