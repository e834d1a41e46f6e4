import type { ChangeEvent } from 'react';
import { TextField } from './text-field';
import type { InputContents } from '../../schemas/generated/types';
import { upperCaseAscii } from '../../schemas/identifiers';
import type { WidgetProps } from '../widget-props';
import { commonFieldProps, stringValue } from './shared';

/**
 * A text field holding a KYC identifier (`contents.identifier`, issue 5: PAN, GSTIN, Aadhaar, voter ID,
 * driving licence, passport, vehicle RC). Letters a–z are upper-cased as they are typed or pasted, keeping
 * the caret where it was (identifiers are upper case; other characters are left for the check to refuse).
 * When the field loses focus with something in it, the engine checks it (`form.validate`) against the
 * identifier's published rule, so a wrong PAN or check digit shows its own message before submit; submit
 * checks it again. Left to right even in Arabic; the keyboard offers capitals (autocapitalize) or, for
 * Aadhaar, digits.
 */
export function IdentifierField({ id, contents, form }: WidgetProps<InputContents>) {
  const error = form.error(contents.field);
  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const input = event.target;
    const upper = upperCaseAscii(input.value);
    if (upper !== input.value) {
      // Same length, so the caret may stay where it was; React then finds the DOM value already right.
      const { selectionStart, selectionEnd } = input;
      input.value = upper;
      if (selectionStart !== null && selectionEnd !== null)
        input.setSelectionRange(selectionStart, selectionEnd);
    }
    form.setValue(contents.field, upper);
  };
  const onBlur = () => {
    if (stringValue(form, contents.field).trim() !== '') form.validate(contents.field);
  };
  return (
    <TextField
      {...commonFieldProps(id, contents, form, error)}
      type="text"
      value={stringValue(form, contents.field)}
      onChange={onChange}
      onBlur={onBlur}
      slotProps={{
        htmlInput: {
          maxLength: contents.max_length,
          inputMode: contents.identifier === 'aadhaar' ? 'numeric' : 'text',
          autoCapitalize: 'characters',
          autoCorrect: 'off',
          autoComplete: 'off',
          spellCheck: false,
          dir: 'ltr',
        },
      }}
    />
  );
}
