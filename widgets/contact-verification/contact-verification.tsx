import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Box, Button, Chip, Link, TextField, Typography } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { useTranslation } from 'react-i18next';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { ContactVerificationContents } from '../../schemas/generated/types';
import type { RequestFailure, WidgetProps } from '../widget-props';
import { visuallyHidden } from '../shared-ui';
import { isRecord } from '../../schemas/app/is-record';

type Channel = ContactVerificationContents['channel'];

/** Digits of a code when neither the contents nor the send answer say (SPEC §5: 4 in the property flow). */
export const DEFAULT_OTP_LENGTH = 4;

/** Answer of sendContactOtp (kyc-contract: `{channel, destination, otp_length, expires_in_s, resend_after_s}`). */
export interface SendContactOtpAnswer {
  channel: Channel;
  /** The value as the server normalised it: e-mail trimmed and lower-cased, phone E.164. */
  destination: string;
  otp_length: number;
  /** s until the code expires. */
  expires_in_s: number;
  /** s before another code may be asked for. */
  resend_after_s: number;
}

/** Answer of verifyContactOtp: verified is true only when is_another_user_present is false. */
export interface VerifyContactOtpAnswer {
  channel: Channel;
  destination: string;
  verified: boolean;
  is_another_user_present: boolean;
}

/**
 * How the server writes a value it verified (kyc-contract `destination`): an e-mail trimmed and lower-cased;
 * a phone number in E.164 (read with libphonenumber-js, a national number in `country`). Null when there is
 * nothing to compare (empty, or a phone number that cannot be read).
 */
export function normaliseContact(channel: Channel, value: string, country?: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  if (channel === 'email') return text.toLowerCase();
  const parsed = parsePhoneNumberFromString(
    text,
    country && /^[A-Z]{2}$/.test(country) ? (country as CountryCode) : undefined,
  );
  return parsed?.isPossible() ? parsed.number : null;
}

/** Fills `{{name}}` placeholders of a server text. */
export function fillText(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/**
 * A server text with `{{destination}}` replaced by `node` (so that an e-mail or an E.164 number is isolated
 * from the sentence's direction, e.g. in Arabic).
 */
function withDestination(text: string, node: ReactNode): ReactNode[] {
  const parts = text.split(/\{\{\s*destination\s*\}\}/);
  return parts.flatMap((part, index) => (index === 0 ? [part] : [<span key={index}>{node}</span>, part]));
}

/** The parts of a rejected request the widget uses (see RequestFailure), read defensively. */
interface Failure {
  message: string;
  code: string | undefined;
  status: number;
  /** s to wait before asking again (429 `error.retry_after_s`). */
  retryAfterS: number | undefined;
}

function failureOf(error: unknown, fallback: string): Failure {
  const e = (isRecord(error) ? error : {}) as Partial<RequestFailure>;
  const body = isRecord(e.body) && isRecord(e.body.error) ? e.body.error : undefined;
  const retry = body?.retry_after_s;
  return {
    message: typeof e.message === 'string' && e.message.trim() !== '' ? e.message : fallback,
    code: typeof e.code === 'string' ? e.code : undefined,
    status: typeof e.status === 'number' ? e.status : 0,
    retryAfterS: typeof retry === 'number' && retry > 0 ? retry : undefined,
  };
}

const isAbort = (error: unknown) => isRecord(error) && error.name === 'AbortError';

/** The code sent for one value: valid while the field still holds `value` (and `country`). */
interface CodeSession {
  value: string;
  country: string | undefined;
  destination: string;
  otpLength: number;
}

/** A value the server verified (or found to be another user's) in this widget's life. */
interface Outcome {
  value: string;
  country: string | undefined;
  destination: string;
}

const sameValue = (a: { value: string; country: string | undefined }, value: string, country?: string) =>
  a.value === value && a.country === country;

/** Current time in ms, ticking every second while `until` is in the future (for a countdown). */
function useNow(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (until === null || until <= Date.now()) return undefined;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return now;
}

/** Lines kept in the live region. */
const ANNOUNCEMENT_LOG = 4;

/**
 * The `contact_verification` widget (issue 5; SPEC §4 'OTP (mobile and e-mail): send and verify with loading
 * flags; the verify result says whether a conflicting user exists; phone or e-mail verified is set when not
 * conflicting'). Drawn under the form's e-mail or phone input, it verifies the value of `field`:
 *
 * - not verified: "Verify" (disabled while the field is empty or a wait runs) → `send(send_endpoint,
 *   {channel, value, country?})` with a busy button; the server's refusal (e.g. 'Please enter the correct
 *   email ID', a cooldown with `retry_after_s`) shows under it;
 * - code entry: 'We sent a code to {{destination}}' with "Change", ONE input (autocomplete one-time-code,
 *   inputmode numeric, digits only, `otp_length` of the send answer) checked as soon as it is complete or on
 *   Submit / Enter → `send(verify_endpoint, {channel, value, country?, otp})`; "Resend code" after
 *   `resend_after_s` with a visible countdown; a wrong or expired code shows the server's message;
 * - verified: a badge with a check icon while the field's value normalises ({@link normaliseContact}) to the
 *   last verified destination or to `verified_destination`, or is the very value verified; editing the field
 *   drops it, typing the verified value back brings it back. `on_verified` runs after a verify;
 * - conflict (is_another_user_present): `conflict_message`, and `conflict_actions` run with the verify answer
 *   as `response` (e.g. navigate to the 'Resolve an issue' screen).
 *
 * Editing the field during code entry ends it (the code belongs to the old value). Sent, verified, conflict
 * and errors are announced in a polite live region; inputs and buttons are labelled and keyboard operable.
 * Requests go through the engine's API client (`send`), so 401 handling and headers are the app's own; they
 * are aborted on unmount. The widget writes only `verified_field` (when given) in the form.
 */
export function ContactVerification({
  id,
  contents,
  form,
  dispatch,
  send,
}: WidgetProps<ContactVerificationContents>) {
  const { t } = useTranslation();
  const { channel, texts } = contents;
  const baseId = `${id}-${useId()}`;
  const codeId = `${baseId}-code`;
  const messageId = `${baseId}-message`;
  const channelName = t(`widgets.contact_verification.channel_${channel}`);

  const rawValue = form.value(contents.field);
  const value = typeof rawValue === 'string' ? rawValue : rawValue == null ? '' : String(rawValue);
  const rawCountry = contents.country_field ? form.value(contents.country_field) : undefined;
  const country =
    channel === 'phone' && typeof rawCountry === 'string' && /^[A-Z]{2}$/.test(rawCountry)
      ? rawCountry
      : undefined;
  const normalised = normaliseContact(channel, value, country);

  const [session, setSession] = useState<CodeSession | null>(null);
  const [verified, setVerified] = useState<Outcome | null>(null);
  const [conflict, setConflict] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState<'send' | 'verify' | null>(null);
  const [error, setError] = useState<{ message: string; value: string } | null>(null);
  // The server's wait (resend_after_s, a cooldown) applies to the value it was asked for.
  const [wait, setWait] = useState<{ until: number; value: string; country: string | undefined } | null>(
    null,
  );
  const [code, setCode] = useState('');
  const [announcements, setAnnouncements] = useState<readonly { id: number; text: string }[]>([]);
  const announceCounter = useRef(0);
  const controller = useRef<AbortController | null>(null);
  const lastTried = useRef<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const badgeRef = useRef<HTMLDivElement>(null);
  const verifyRef = useRef<HTMLButtonElement>(null);
  const focusBadge = useRef(false);
  const waitUntil = wait && sameValue(wait, value, country) ? wait.until : null;
  const now = useNow(waitUntil);

  const announce = useCallback((text: string) => {
    announceCounter.current += 1;
    const lineId = announceCounter.current;
    setAnnouncements((log) => [...log.slice(-(ANNOUNCEMENT_LOG - 1)), { id: lineId, text }]);
  }, []);

  useEffect(() => {
    const requests = controller;
    return () => requests.current?.abort();
  }, []);

  const isVerified =
    (normalised !== null &&
      (normalised === contents.verified_destination || normalised === verified?.destination)) ||
    (verified !== null && value.trim() !== '' && sameValue(verified, value, country));
  const activeSession = session && sameValue(session, value, country) ? session : null;
  const activeConflict = conflict && !isVerified && sameValue(conflict, value, country) ? conflict : null;
  const activeError = error && error.value === value ? error.message : null;
  const secondsLeft = waitUntil === null ? 0 : Math.max(0, Math.ceil((waitUntil - now) / 1000));

  // The code belongs to the value it was sent for: editing the field ends the code entry.
  useEffect(() => {
    if (session && !activeSession) {
      controller.current?.abort();
      setSession(null);
      setCode('');
      setBusy(null);
      lastTried.current = null;
    }
  }, [session, activeSession]);

  const verifiedField = contents.verified_field;
  // Read while drawing, so that a form replaced under the widget (a draft loaded) is put right again too.
  const storedVerified = verifiedField ? form.value(verifiedField) : undefined;
  useEffect(() => {
    if (verifiedField && storedVerified !== isVerified) form.setValue(verifiedField, isVerified);
  }, [verifiedField, storedVerified, isVerified, form]);

  useEffect(() => {
    if (isVerified && focusBadge.current) {
      focusBadge.current = false;
      badgeRef.current?.focus();
    }
  }, [isVerified]);

  /** A new AbortController for a request, aborting the one before. */
  const nextSignal = () => {
    controller.current?.abort();
    const next = new AbortController();
    controller.current = next;
    return next;
  };

  const requestBody = () => ({
    channel,
    value,
    ...(country ? { country } : {}),
  });

  const sendCode = async () => {
    if (busy || value.trim() === '' || (waitUntil !== null && waitUntil > Date.now())) return;
    const own = nextSignal();
    const sentValue = value;
    const sentCountry = country;
    setBusy('send');
    setError(null);
    try {
      const answer = (await send(contents.send_endpoint, requestBody(), own.signal)) as SendContactOtpAnswer;
      if (own.signal.aborted) return;
      const otpLength =
        typeof answer.otp_length === 'number' && answer.otp_length > 0
          ? answer.otp_length
          : (contents.otp_length ?? DEFAULT_OTP_LENGTH);
      const destination = typeof answer.destination === 'string' ? answer.destination : sentValue.trim();
      setSession({ value: sentValue, country: sentCountry, destination, otpLength });
      setConflict(null);
      setCode('');
      lastTried.current = null;
      const resendAfter = typeof answer.resend_after_s === 'number' ? answer.resend_after_s : 0;
      setWait(
        resendAfter > 0
          ? { until: Date.now() + resendAfter * 1000, value: sentValue, country: sentCountry }
          : null,
      );
      announce(fillText(texts.sent_label, { destination }));
      codeRef.current?.focus();
    } catch (e) {
      if (isAbort(e) || own.signal.aborted) return;
      const failure = failureOf(e, t('widgets.contact_verification.failed'));
      if (failure.retryAfterS) {
        setWait({ until: Date.now() + failure.retryAfterS * 1000, value: sentValue, country: sentCountry });
      }
      setError({ message: failure.message, value: sentValue });
      announce(failure.message);
    } finally {
      if (controller.current === own) setBusy(null);
    }
  };

  const verifyCode = async (otp: string) => {
    if (!activeSession || busy || otp.length !== activeSession.otpLength) return;
    lastTried.current = otp;
    const own = nextSignal();
    const checked = activeSession;
    setBusy('verify');
    setError(null);
    try {
      const answer = (await send(
        contents.verify_endpoint,
        { ...requestBody(), otp },
        own.signal,
      )) as VerifyContactOtpAnswer;
      if (own.signal.aborted) return;
      const destination = typeof answer.destination === 'string' ? answer.destination : checked.destination;
      const outcome: Outcome = { value: checked.value, country: checked.country, destination };
      const scope = { response: { success: true, data: answer } };
      if (answer.verified === true) {
        setVerified(outcome);
        setSession(null);
        setCode('');
        setWait(null);
        focusBadge.current = true;
        announce(texts.verified_label);
        if (contents.on_verified?.length) void dispatch(contents.on_verified, scope);
      } else if (answer.is_another_user_present === true) {
        setConflict(outcome);
        setSession(null);
        setCode('');
        announce(texts.conflict_message);
        if (contents.conflict_actions?.length) void dispatch(contents.conflict_actions, scope);
      } else {
        const message = t('widgets.contact_verification.failed');
        setError({ message, value: checked.value });
        announce(message);
      }
    } catch (e) {
      if (isAbort(e) || own.signal.aborted) return;
      const failure = failureOf(e, t('widgets.contact_verification.failed'));
      setError({ message: failure.message, value: checked.value });
      setCode('');
      announce(failure.message);
      codeRef.current?.focus();
    } finally {
      if (controller.current === own) setBusy(null);
    }
  };

  const onCode = (raw: string) => {
    if (!activeSession) return;
    const digits = raw.replace(/\D/g, '').slice(0, activeSession.otpLength);
    setCode(digits);
    if (digits.length === activeSession.otpLength && digits !== lastTried.current) void verifyCode(digits);
  };

  const change = () => {
    controller.current?.abort();
    setSession(null);
    setCode('');
    setBusy(null);
    setError(null);
    lastTried.current = null;
    // The Verify button replaces the code entry: keep the keyboard user there.
    setTimeout(() => verifyRef.current?.focus(), 0);
  };

  const waiting = secondsLeft > 0;
  const label = (action: string) =>
    t('widgets.contact_verification.action', { action, channel: channelName });

  let body: ReactNode;
  if (isVerified) {
    body = (
      <Chip
        ref={badgeRef}
        tabIndex={-1}
        icon={<CheckCircleIcon />}
        label={texts.verified_label}
        color="success"
        variant="outlined"
        aria-label={label(texts.verified_label)}
        data-verified=""
        sx={{ alignSelf: 'flex-start', fontWeight: 600 }}
      />
    );
  } else if (activeSession) {
    body = (
      <>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1 }}>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {withDestination(texts.sent_label, <bdi dir="ltr">{activeSession.destination}</bdi>)}
          </Typography>
          <Link component="button" type="button" variant="body2" onClick={change}>
            {texts.change_label}
          </Link>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, flexWrap: 'wrap' }}>
          <TextField
            id={codeId}
            inputRef={codeRef}
            label={texts.code_label}
            value={code}
            onChange={(e) => onCode(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void verifyCode(code);
              }
            }}
            autoFocus
            error={Boolean(activeError)}
            size="small"
            sx={{ flex: '1 1 10rem', minInlineSize: 0, maxInlineSize: '14rem' }}
            slotProps={{
              htmlInput: {
                inputMode: 'numeric',
                autoComplete: 'one-time-code',
                pattern: '[0-9]*',
                maxLength: activeSession.otpLength,
                dir: 'ltr',
                readOnly: busy === 'verify',
                'aria-describedby': activeError ? messageId : undefined,
                style: { letterSpacing: '0.5em', fontVariantNumeric: 'tabular-nums' },
              },
            }}
          />
          <Button
            variant="contained"
            onClick={() => void verifyCode(code)}
            disabled={code.length !== activeSession.otpLength || busy === 'send'}
            loading={busy === 'verify'}
            aria-busy={busy === 'verify'}
            sx={{ minBlockSize: 40 }}
          >
            {texts.submit_label}
          </Button>
        </Box>
        <Box>
          <Button
            variant="text"
            size="small"
            onClick={() => void sendCode()}
            disabled={waiting || busy === 'verify'}
            loading={busy === 'send'}
            aria-busy={busy === 'send'}
            aria-label={waiting ? undefined : label(texts.resend_label)}
          >
            {waiting ? fillText(texts.resend_in_label, { seconds: secondsLeft }) : texts.resend_label}
          </Button>
        </Box>
      </>
    );
  } else {
    body = (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Button
          ref={verifyRef}
          variant="outlined"
          onClick={() => void sendCode()}
          disabled={value.trim() === '' || waiting}
          loading={busy === 'send'}
          aria-busy={busy === 'send'}
          aria-label={label(texts.verify_label)}
          aria-describedby={activeError || activeConflict ? messageId : undefined}
          sx={{ minBlockSize: 40 }}
        >
          {texts.verify_label}
        </Button>
        {waiting ? (
          <Typography variant="body2" color="text.secondary">
            {fillText(texts.resend_in_label, { seconds: secondsLeft })}
          </Typography>
        ) : (
          texts.hint && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {texts.hint}
            </Typography>
          )
        )}
      </Box>
    );
  }

  const message = activeError ?? (activeConflict && !activeSession ? texts.conflict_message : null);
  return (
    <Box
      role="group"
      aria-label={t('widgets.contact_verification.group', { channel: channelName })}
      data-channel={channel}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1, marginBlockStart: -0.5 }}
    >
      {body}
      {message && (
        <Typography id={messageId} variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
          {message}
        </Typography>
      )}
      <Box role="status" aria-live="polite" aria-relevant="additions text" sx={visuallyHidden}>
        {announcements.map((line) => (
          <div key={line.id}>{line.text}</div>
        ))}
      </Box>
    </Box>
  );
}
