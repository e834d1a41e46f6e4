import { TextField } from './text-field';
import type { InputContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';
import { LazyKindField, isLazyKind, kindsPrepared, prepareKinds } from './lazy-kinds';
import { OtpInput } from './otp-code';
import { PasswordField } from './password-field';
import { PhoneField } from './phone-field';
import { commonFieldProps, stringValue } from './shared';

/**
 * The `input` widget: a form field bound to `contents.field` through `form.value` / `form.setValue`.
 * The label is always visible; the error from `form.error(field)` shows below (aria-describedby,
 * aria-invalid); a required marker shows when `required` or `required_when` holds.
 * Kinds: text, email (type=email, autocomplete=email), multiline (MultilineField: a textarea with a
 * character count), number (NumberField: whole numbers, numeric keypad), phone ({@link PhoneField}),
 * otp ({@link OtpInput}: the code field, a chunk of its own), password ({@link PasswordField}: hidden, with a show/hide button) and text with a KYC `identifier` (IdentifierField: upper-cased as typed,
 * checked when it loses focus). Multiline, number and identifier fields are a chunk of their own
 * (./lazy-kinds.tsx), fetched before a screen with one is drawn.
 * Validation itself runs in the engine on submit, and on blur for identifier fields (SPEC §5 messages come in `required_message` /
 * `invalid_message`); the widget only shows the error it is given.
 */
export function Input(props: WidgetProps<InputContents>) {
  const { id, contents, form } = props;
  if (contents.kind === 'phone') return <PhoneField {...props} />;
  if (contents.kind === 'otp') return <OtpInput {...props} />;
  if (contents.kind === 'password') return <PasswordField {...props} />;
  if (isLazyKind(contents)) return <LazyKindField {...props} />;
  const error = form.error(contents.field);
  const email = contents.kind === 'email';
  return (
    <TextField
      {...commonFieldProps(id, contents, form, error)}
      type={email ? 'email' : 'text'}
      autoComplete={email ? 'email' : undefined}
      value={stringValue(form, contents.field)}
      onChange={(e) => form.setValue(contents.field, e.target.value)}
      slotProps={{
        htmlInput: {
          maxLength: contents.max_length,
          inputMode: email ? 'email' : undefined,
          dir: email ? 'ltr' : undefined,
        },
      }}
    />
  );
}

// The code the contents need (widgets/widget-props.ts `ContentsCode`): the chunk of the kinds no sign-in screen
// draws (./lazy-kinds.tsx).
Input.prepare = prepareKinds;
Input.prepared = kindsPrepared;
