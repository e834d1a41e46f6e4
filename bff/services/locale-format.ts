/**
 * Dates, money and rates as owners read them in their language (SPEC §9 'Date display: day numeric, month
 * short, year numeric'), with the platform's Intl (full ICU in Node 20). Used by the screens and the
 * contract PDF alike, so both show the same text.
 */

/** The Intl locale of a product locale ('en-GB', 'ar', 'zh', …); unknown ones fall back to en-GB. */
function intlLocale(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en-GB';
  } catch {
    return 'en-GB';
  }
}

/**
 * A date as day numeric, month short, year numeric in `locale` (e.g. '23 Nov 2026', '٢٣ نوفمبر ٢٠٢٦',
 * '2026年11月23日'). `value` is an ISO date ('2026-11-23'), an ISO timestamp or a Date; the calendar day
 * is taken in UTC. Returns `value` unchanged when it is not a date.
 */
export function formatDate(value: string | Date, locale: string): string {
  const d =
    typeof value === 'string'
      ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
      : value;
  if (Number.isNaN(d.getTime())) return String(value);
  return new Intl.DateTimeFormat(intlLocale(locale), {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(d);
}

/** An amount of `currency` (ISO 4217, e.g. 'INR') in `locale`, e.g. '₹0.00', '٠٫٠٠ ₹'. */
export function formatMoney(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A rate given in percent (18 → '18%', '١٨٪؜', '18 %'), at most 2 decimals, in `locale`. */
export function formatPercent(percent: number, locale: string): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: 'percent', maximumFractionDigits: 2 }).format(
    percent / 100,
  );
}
