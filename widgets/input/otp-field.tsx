import { useEffect, useId, useRef, useState } from 'react';
import { Box, Button, FormControl, FormHelperText, FormLabel, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { InputContents } from '../../schemas/generated/types';
import type { Dispatch, WidgetProps } from '../widget-props';
import { fillFields, isRequired, stringValue } from './shared';
import { PhoneAwareText } from '../phone-text';
import { useFocusOnceDrawn } from './focus-once-drawn';

/** Digits of a code when the screen does not say (SPEC §5: 6 in the login flow). */
const DEFAULT_OTP_LENGTH = 6;

/** Keeps the digits of what was typed, pasted or autofilled ('12 34-56' → '123456'), at most `length`. */
export function otpDigits(raw: string, length: number): string {
  return raw.replace(/\D/g, '').slice(0, length);
}

/**
 * The code after an edit of the field that held `previous` and now holds `raw` (issue 12 item 5). While the
 * boxes are not all filled this is {@link otpDigits} of `raw`. Once they are full (a wrong code stays in
 * them), what was typed or pasted starts a new code instead of being cut off behind the old one: the
 * inserted text (what `raw` has beyond the common start and end with `previous`) is the new code.
 */
export function nextOtpValue(previous: string, raw: string, length: number): string {
  const digits = otpDigits(raw, length);
  if (previous.length < length || raw.replace(/\D/g, '').length <= length) return digits;
  let start = 0;
  while (start < previous.length && raw[start] === previous[start]) start += 1;
  let end = 0;
  while (end < previous.length - start && raw[raw.length - 1 - end] === previous[previous.length - 1 - end])
    end += 1;
  const inserted = otpDigits(raw.slice(start, raw.length - end), length);
  return inserted === '' ? digits : inserted;
}

/**
 * Resend button of the OTP field: disabled and showing `countdown_label` (with `{{seconds}}` left) for
 * `cooldown_s` seconds after mount and after each resend whose actions succeed; then enabled.
 */
function Resend({
  resend,
  dispatch,
  onResent,
}: {
  resend: NonNullable<InputContents['resend']>;
  dispatch: Dispatch;
  onResent(): void;
}) {
  const [left, setLeft] = useState(resend.cooldown_s);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const waiting = left > 0;
  return (
    <Button
      variant="text"
      size="small"
      disabled={waiting || busy}
      aria-busy={busy}
      onClick={async () => {
        setBusy(true);
        const ok = await dispatch(resend.actions);
        setBusy(false);
        if (ok) {
          setLeft(resend.cooldown_s);
          onResent();
        }
      }}
    >
      {waiting ? resend.countdown_label.replace(/\{\{\s*seconds\s*\}\}/g, String(left)) : resend.label}
    </Button>
  );
}

/**
 * OTP kind of the input widget: ONE input element (so paste and SMS autofill, `autocomplete=
 * one-time-code`, work and screen readers meet a single labelled field) drawn as `otp_length` boxes.
 * Only digits are kept; `on_complete` runs when the last digit comes in. Typing or pasting over a full
 * (wrong) code starts a new one ({@link nextOtpValue}); new input and a successful resend clear the error. Above it `sent_to` (with form
 * values filled in) and the `edit` link; below it the resend button with its countdown.
 */
export function OtpField({ id, contents, form, dispatch }: WidgetProps<InputContents>) {
  const { t } = useTranslation();
  const inputId = `${id}-${useId()}`;
  const length = contents.otp_length ?? DEFAULT_OTP_LENGTH;
  const value = stringValue(form, contents.field);
  const error = form.error(contents.field);
  const required = isRequired(contents, form);
  const [focused, setFocused] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  // The widget's `autofocus`, once the screen is painted (not in React's commit: issue 13 item 4).
  useFocusOnceDrawn(contents.autofocus, inputRef);
  const helperId = `${inputId}-helper`;
  const helper = error ?? contents.helper_text ?? t('widgets.input.otp_hint', { count: length });

  const onChange = (raw: string) => {
    const digits = nextOtpValue(value, raw, length);
    // The same digits again still clear an error: the owner is trying again.
    if (digits === value && !error) return;
    form.setValue(contents.field, digits);
    if (digits.length === length && contents.on_complete?.length) void dispatch(contents.on_complete);
  };

  return (
    <FormControl error={Boolean(error)} fullWidth sx={{ gap: 1 }}>
      {(contents.sent_to || contents.edit) && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1 }}>
          {contents.sent_to && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              <PhoneAwareText text={fillFields(contents.sent_to, form)} />
            </Typography>
          )}
          {contents.edit && (
            <Link
              component="button"
              type="button"
              variant="body2"
              onClick={() => void dispatch(contents.edit!.actions)}
              // A 44 × 44 px touch target at least (WCAG 2.5.5), not the 20 px line of text (issue 12 item 19).
              sx={{ minHeight: 44, minWidth: 44, paddingInline: 1 }}
            >
              {contents.edit.label}
            </Link>
          )}
        </Box>
      )}
      <FormLabel htmlFor={inputId} required={required}>
        {contents.label}
      </FormLabel>
      <Box
        dir="ltr"
        sx={{ position: 'relative', display: 'flex', gap: 1, justifyContent: 'center', width: '100%' }}
        onClick={() => inputRef.current?.focus()}
      >
        {Array.from({ length }, (_, i) => {
          const active = focused && i === Math.min(value.length, length - 1);
          return (
            <Box
              key={i}
              aria-hidden
              sx={{
                flex: '1 1 0',
                maxWidth: 52,
                minWidth: 0,
                height: 52,
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                border: active ? 2 : 1,
                borderColor: error ? 'error.main' : active ? 'primary.main' : 'divider',
                borderRadius: 1,
                typography: 'h6',
                bgcolor: 'background.paper',
              }}
            >
              {value[i] ?? ''}
            </Box>
          );
        })}
        <Box
          component="input"
          ref={inputRef}
          id={inputId}
          name={contents.field}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          value={value}
          required={required}
          aria-invalid={Boolean(error)}
          aria-describedby={helperId}
          onChange={(e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          sx={{
            position: 'absolute',
            inset: 0,
            width: '100%',
            height: '100%',
            border: 0,
            padding: 0,
            background: 'transparent',
            color: 'transparent',
            caretColor: 'transparent',
            outline: 'none',
            '&::selection': { background: 'transparent' },
          }}
        />
      </Box>
      <FormHelperText id={helperId} sx={{ marginInline: 0 }}>
        {helper}
      </FormHelperText>
      {contents.resend && (
        <Box>
          <Resend
            resend={contents.resend}
            dispatch={dispatch}
            // A new code is on its way: the old one and its error go (issue 12 item 5).
            onResent={() => form.setValue(contents.field, '')}
          />
        </Box>
      )}
    </FormControl>
  );
}
