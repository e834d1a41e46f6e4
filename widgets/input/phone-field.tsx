import { startTransition, useEffect, useMemo, useState } from 'react';
import { Box } from '@mui/material';
import { TextField } from './text-field';
import { useTranslation } from 'react-i18next';
import type { CountryCode } from 'libphonenumber-js';
import type { InputContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';
import { COUNTRY_CALLING_CODES, loadPhoneLib, mainCountryOf, phoneLib } from './phone-lib';
import { isRequired, stringValue } from './shared';
import { loadOtpField } from './otp-code';
import { namedRegions } from '../../schemas/app/region-names';

/**
 * The country a number typed in international form belongs to, or undefined for a national number
 * (which keeps the selected country). While the number is still too short to tell countries that share
 * a calling code apart (+1, +7, +44…), the selected country is kept when it has that code, else the
 * code's main country is taken. Undefined too while libphonenumber-js is not loaded yet ({@link loadPhoneLib}).
 */
export function countryOfNumber(raw: string, selected: string | undefined): CountryCode | undefined {
  const text = raw.trim();
  const lib = phoneLib();
  if (!text.startsWith('+') || !lib) return undefined;
  const { AsYouType, getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString } = lib;
  const parsed = parsePhoneNumberFromString(text);
  if (parsed?.country) return parsed.country;
  const typing = new AsYouType();
  typing.input(text);
  const country = typing.getCountry();
  if (country) return country;
  const callingCode = typing.getCallingCode() ?? parsed?.countryCallingCode;
  if (!callingCode) return undefined;
  if (selected && isSupportedCountry(selected) && getCountryCallingCode(selected) === callingCode)
    return selected;
  const main = mainCountryOf(callingCode);
  return main && isSupportedCountry(main) ? main : undefined;
}

/**
 * The national part of `value` when it is a stored number in E.164 ('+919876543210') of the calling code of
 * `country` ('IN' → '9876543210'), else `value` as it is: the country box beside it already says '+91'
 * (issue 12 item 19). The server reads a national number with the country field.
 */
export function nationalPart(value: string, country: string): string {
  const callingCode = COUNTRY_CALLING_CODES.get(country);
  if (!callingCode || !/^\+\d{8,15}$/.test(value) || !value.startsWith(`+${callingCode}`)) return value;
  return value.slice(callingCode.length + 1);
}

/** Longest wait for an idle moment before the country list is built anyway, ms (ours). */
const COUNTRY_LIST_IDLE_TIMEOUT_MS = 2000;

/** Runs `task` when the browser is idle (at most {@link COUNTRY_LIST_IDLE_TIMEOUT_MS} later); returns a cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: COUNTRY_LIST_IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, 0);
  return () => clearTimeout(timer);
}

/** One option of the country selector: ISO 3166-1 alpha-2 code, calling code digits, name in the language. */
export interface CountryOption {
  code: string;
  callingCode: string;
  name: string;
}

/** Stand-ins put through the option's text once, then replaced per country ({@link optionLabeller}). */
const COUNTRY_MARK = '\u0001country\u0001';
const CODE_MARK = '\u0001code\u0001';

/**
 * A function writing one option's text ('India (+91)') from `widgets.input.country_option`, translated once
 * for the whole list instead of once per country: ≈245 calls of i18next were ≈40 ms of one task.
 */
export function optionLabeller(
  t: (key: string, options: Record<string, string>) => string,
): (option: CountryOption) => string {
  const pattern = t('widgets.input.country_option', { country: COUNTRY_MARK, code: CODE_MARK });
  return (option) =>
    pattern.replace(COUNTRY_MARK, () => option.name).replace(CODE_MARK, () => option.callingCode);
}

/** Countries named and sorted per language (see {@link provideRegionNames}), or computed here once. */
const regionsByLanguage = new Map<string, readonly (readonly [string, string])[]>();

/**
 * Gives the country box its countries for `language`, named and sorted as {@link namedRegions} would in the
 * browser: the page brings them with its first screen (schemas/app/first-screen.ts `regions`), so that the
 * box is drawn without the browser's first `Intl.DisplayNames` (issue 13 item 4). Only countries the box
 * lists are taken.
 */
export function provideRegionNames(language: string, regions: readonly (readonly [string, string])[]): void {
  regionsByLanguage.set(
    language,
    regions.filter(([code]) => COUNTRY_CALLING_CODES.has(code)),
  );
}

/**
 * The country selector's options in `language`: every country of {@link COUNTRY_CALLING_CODES} named through
 * `Intl.DisplayNames` (the code where it has no name) and sorted by the language's collation, or as the page
 * gave them ({@link provideRegionNames}); or, with `only`, that one country alone (none when it is not a
 * known country).
 */
export function countryOptions(language: string, only?: string): CountryOption[] {
  const given = regionsByLanguage.get(language);
  if (only !== undefined) {
    const callingCode = COUNTRY_CALLING_CODES.get(only);
    if (!callingCode) return [];
    const [, name] = given?.find(([code]) => code === only) ?? namedRegions(language, [only])[0]!;
    return [{ code: only, callingCode, name }];
  }
  let regions = given;
  if (!regions) {
    regions = namedRegions(language, [...COUNTRY_CALLING_CODES.keys()]);
    regionsByLanguage.set(language, regions);
  }
  return regions.map(([code, name]) => ({ code, callingCode: COUNTRY_CALLING_CODES.get(code)!, name }));
}

/**
 * Phone kind of the input widget: a country selector (native select: the phone's own picker, searchable
 * by typing) beside a `type="tel"` field. The raw string typed is stored in `field` (the server
 * normalises it); the country (ISO alpha-2) in `country_field`, preselected from `default_country`.
 * A number in international form moves the selector to its country.
 */
export function PhoneField({ id, contents, form }: WidgetProps<InputContents>) {
  const { t, i18n } = useTranslation();
  // The chosen language (not resolvedLanguage, which lags until the texts arrive): country names follow it.
  const language = i18n.language || 'en-GB';
  const countryField = contents.country_field;
  const [localCountry, setLocalCountry] = useState<string | undefined>(contents.default_country);
  const stored = countryField ? form.value(countryField) : undefined;
  const country =
    (typeof stored === 'string' && stored) || (countryField ? contents.default_country : localCountry) || '';

  useEffect(() => {
    if (countryField && contents.default_country && form.value(countryField) === undefined) {
      form.setValue(countryField, contents.default_country);
    }
    // Only the first draw preselects; later changes of the form must not reset the user's choice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The whole list (≈245 named, sorted and drawn options) lengthened the sign-in screen's first draw (issue 13
  // item 4). The box first holds the chosen country alone; the list is built when the owner reaches the box
  // (pointer, touch or keyboard focus, before the phone's picker opens) or once the page is idle, whichever
  // comes first.
  const [listed, setListed] = useState(false);
  const listAll = () => {
    if (!listed) setListed(true);
  };
  useEffect(() => {
    if (listed) return;
    return whenIdle(() => startTransition(() => setListed(true)));
  }, [listed]);
  const countries = useMemo(
    () => (listed ? countryOptions(language) : countryOptions(language, country)),
    [listed, language, country],
  );

  // One translation per draw (not kept: texts that arrive later change it).
  const label = optionLabeller(t);

  const setCountry = (next: string) => {
    if (countryField) form.setValue(countryField, next);
    else setLocalCountry(next);
  };

  const error = form.error(contents.field);
  const required = isRequired(contents, form);
  const value = stringValue(form, contents.field);
  // A stored number (E.164) comes back shown without the calling code the country box shows; only the
  // value the field started with, so that a '+91…' being typed is never rewritten under the owner's fingers.
  const [startValue] = useState(value);
  const shownValue = value === startValue ? nationalPart(value, country) : value;

  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', width: '100%' }}>
      <TextField
        id={`${id}-country`}
        select
        label={t('widgets.input.country')}
        value={country}
        onChange={(e) => setCountry(e.target.value)}
        onReach={listAll}
        sx={{ flex: '0 0 38%', minWidth: 0 }}
        slotProps={{ inputLabel: { shrink: true } }}
      >
        {country === '' && <option value="" />}
        {countries.map((c) => (
          <option key={c.code} value={c.code}>
            {label(c)}
          </option>
        ))}
      </TextField>
      <TextField
        id={`${id}-number`}
        label={contents.label}
        type="tel"
        autoComplete="tel"
        value={shownValue}
        onChange={(e) => {
          const raw = e.target.value;
          form.setValue(contents.field, raw);
          const detect = () => {
            const detected = countryOfNumber(raw, country);
            if (detected && detected !== country) setCountry(detected);
          };
          if (phoneLib()) detect();
          // The first keystroke fetches the library; the number typed so far is read once it is there.
          else loadPhoneLib().then(detect, () => undefined);
          // And the code field of the step that follows (once).
          void loadOtpField();
        }}
        required={required}
        error={Boolean(error)}
        helperText={error ?? contents.helper_text}
        placeholder={contents.placeholder}
        autoFocus={contents.autofocus}
        sx={{ flex: '1 1 auto', minWidth: 0 }}
        slotProps={{
          // Phone numbers read left to right in every language; without this '+91 98765' is reordered in Arabic.
          htmlInput: { inputMode: 'tel', dir: 'ltr', maxLength: contents.max_length },
          // Always above the box, like the country's: beside the country box a resting label has only ~60 % of
          // a 412 px screen, and 'Front desk phone number' was cut (issue 12 item 15).
          inputLabel: { shrink: true },
        }}
      />
    </Box>
  );
}
