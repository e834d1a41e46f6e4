import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { loadPhoneLib, phoneLib } from './input/phone-lib';

/**
 * A phone number in E.164 inside a text ('+919102130008'): '+' then 8 to 15 digits, not glued to other
 * digits or letters.
 */
const E164_IN_TEXT = /(?<![\p{L}\p{N}+])\+[1-9]\d{7,14}(?!\p{N})/gu;

/**
 * How a number in E.164 is shown (issue 12 item 4): libphonenumber-js' international format
 * ('+91 91021 30008'), or the number as it is while the library is not there or cannot read it.
 */
export function displayPhone(e164: string): string {
  const parsed = phoneLib()?.parsePhoneNumberFromString(e164);
  return parsed?.isValid() ? parsed.formatInternational() : e164;
}

/** Splits `text` into plain runs and E.164 numbers (odd indexes are numbers). */
export function splitPhones(text: string): string[] {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(E164_IN_TEXT)) {
    parts.push(text.slice(last, match.index), match[0]);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

/**
 * `text` with every phone number in it isolated left to right (`<bdi dir="ltr">`, so '+91…' does not become
 * '…91+' in Arabic) and shown in international format (issue 12 item 4). libphonenumber-js is loaded only
 * when the text holds a number; until it is there the number shows as it is, isolated.
 */
export function PhoneAwareText({ text }: { text: string }): ReactNode {
  const parts = splitPhones(text);
  const hasPhone = parts.length > 1;
  const [, setLoaded] = useState(phoneLib() !== null);
  useEffect(() => {
    if (!hasPhone || phoneLib()) return undefined;
    let live = true;
    loadPhoneLib().then(
      () => live && setLoaded(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [hasPhone]);
  if (!hasPhone) return text;
  return parts.map((part, i) =>
    i % 2 === 1 ? (
      <bdi key={i} dir="ltr">
        {displayPhone(part)}
      </bdi>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}
