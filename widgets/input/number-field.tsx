import { useState } from 'react';
import { TextField } from './text-field';
import type { InputContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';
import { commonFieldProps } from './shared';

/** Most digits a number field takes: beyond 15 a JavaScript number is no longer exact. */
const MAX_DIGITS = 15;

/**
 * The whole number typed so far, from what the user entered: digits only (a leading '-' too when `min` allows
 * negatives), at most 15 of them. Returns null for nothing (the field is empty), or the number ('007' → 7).
 */
export function wholeNumberOf(text: string, allowNegative: boolean): number | null {
  const negative = allowNegative && text.trim().startsWith('-');
  const digits = text.replace(/[^0-9]/g, '').slice(0, MAX_DIGITS);
  if (digits === '') return null;
  const n = Number(digits);
  return negative ? -n : n;
}

/**
 * The `number` kind of the input widget: whole numbers only (issue 3: total rooms, available floors). A text
 * field with inputMode numeric (the phone's number pad) that drops anything but digits as it is typed or
 * pasted and stores a number (null when empty) in the form. A leading '-' is kept only when `min` is
 * negative; `min` / `max` themselves are checked by the engine on submit (its message names the range).
 */
export function NumberField({ id, contents, form }: WidgetProps<InputContents>) {
  const error = form.error(contents.field);
  const allowNegative = contents.min !== undefined && contents.min < 0;
  const value = form.value(contents.field);
  const stored =
    typeof value === 'number'
      ? value
      : typeof value === 'string'
        ? wholeNumberOf(value, allowNegative)
        : null;
  // What the user typed so far ('-' before its digits); replaced when the form value changes elsewhere.
  const [text, setText] = useState(() => (value === undefined || value === null ? '' : String(value)));
  const shown = wholeNumberOf(text, allowNegative) === stored ? text : stored === null ? '' : String(stored);
  const onChange = (typed: string) => {
    const n = wholeNumberOf(typed, allowNegative);
    const negativeStart = allowNegative && typed.trim() === '-';
    setText(negativeStart ? '-' : n === null ? '' : String(n));
    form.setValue(contents.field, n);
  };
  return (
    <TextField
      {...commonFieldProps(id, contents, form, error)}
      type="text"
      value={shown}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{
        htmlInput: {
          inputMode: 'numeric',
          pattern: allowNegative ? '-?[0-9]*' : '[0-9]*',
          autoComplete: 'off',
          dir: 'ltr',
        },
      }}
    />
  );
}
