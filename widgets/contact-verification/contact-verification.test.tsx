import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContactVerificationContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness, type HarnessRecord } from '../test-harness';
import type { Send, WidgetProps } from '../widget-props';
import { ContactVerification, fillText, normaliseContact } from './contact-verification';

describe('contact_verification fixtures', () => {
  it('has good and error fixtures', () => {
    expect(goodFixtures('contact_verification').length).toBeGreaterThan(0);
    expect(errorFixtures('contact_verification').length).toBeGreaterThan(0);
  });
  it.each(goodFixtures('contact_verification').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('contact_verification', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('contact_verification').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('contact_verification', env.contents).valid).toBe(false);
    },
  );
});

const email = fixtureContents<ContactVerificationContents>('contact_verification', 'email');
const phone = fixtureContents<ContactVerificationContents>('contact_verification', 'phone');
const verifiedEmail = fixtureContents<ContactVerificationContents>('contact_verification', 'verified-email');
const arabic = fixtureContents<ContactVerificationContents>('contact_verification', 'arabic');

/** The field the widget verifies, as the form's own input would draw it, beside the widget. */
function withField(label: string) {
  return function FieldAndWidget(props: WidgetProps<ContactVerificationContents>) {
    const { form, contents } = props;
    const value = form.value(contents.field);
    return (
      <>
        <label>
          {label}
          <input
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => form.setValue(contents.field, e.target.value)}
          />
        </label>
        <ContactVerification {...props} />
      </>
    );
  };
}
const EmailField = withField('E-mail');
const PhoneField = withField('Phone');

/** A request the test answers later. */
interface Pending {
  endpoint: string;
  body: Readonly<Record<string, unknown>>;
  signal: AbortSignal | undefined;
  resolve(data: unknown): void;
  reject(error: unknown): void;
}

function fakeSend() {
  const calls: Pending[] = [];
  const send: Send = (endpoint, body, signal) =>
    new Promise((resolve, reject) => {
      calls.push({ endpoint, body, signal, resolve, reject });
    });
  return { send, calls };
}

/** An error shaped like the API client's ApiError. */
function apiError(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return Object.assign(new Error(message), {
    name: 'ApiError',
    status,
    code,
    body: { success: false, error: { code, message, ...extra } },
  });
}

const sent = (destination: string, resend = 30) => ({
  channel: 'email',
  destination,
  otp_length: 4,
  expires_in_s: 600,
  resend_after_s: resend,
});

/** The element showing `text` on screen (not the live region's copy of it). */
function shown(text: string | RegExp): HTMLElement {
  const found = screen.getAllByText(text).filter((el) => !el.closest('[role="status"]'));
  expect(found).toHaveLength(1);
  return found[0]!;
}
const notShown = (text: string | RegExp) =>
  expect(screen.queryAllByText(text).filter((el) => !el.closest('[role="status"]'))).toEqual([]);

const verifyButton = () => screen.getByRole('button', { name: 'Verify (e-mail address)' });
const liveRegion = () => screen.getByRole('status');

afterEach(() => {
  vi.useRealTimers();
});

describe('normaliseContact', () => {
  it('trims and lower-cases an e-mail', () => {
    expect(normaliseContact('email', '  Owner@Example.COM ')).toBe('owner@example.com');
  });
  it('writes a phone number in E.164, reading a national number in its country', () => {
    expect(normaliseContact('phone', '098765 43210', 'IN')).toBe('+919876543210');
    expect(normaliseContact('phone', '+91 98765-43210')).toBe('+919876543210');
    expect(normaliseContact('phone', '07700 900123', 'GB')).toBe('+447700900123');
  });
  it('answers null for nothing to compare', () => {
    expect(normaliseContact('email', '   ')).toBeNull();
    expect(normaliseContact('phone', '12', 'IN')).toBeNull();
    expect(normaliseContact('phone', 'call me')).toBeNull();
  });
});

describe('fillText', () => {
  it('fills known placeholders and leaves others', () => {
    expect(
      fillText('In {{seconds}} s to {{ destination }} {{other}}', { seconds: 5, destination: 'a@b.c' }),
    ).toBe('In 5 s to a@b.c {{other}}');
  });
});

describe('ContactVerification', () => {
  it('keeps Verify disabled while the field is empty', async () => {
    const user = userEvent.setup();
    render(harness({ component: EmailField, contents: email }));
    expect(verifyButton()).toBeDisabled();
    expect(screen.getByText(email.texts.hint!)).toBeInTheDocument();
    await user.type(screen.getByLabelText('E-mail'), 'a');
    expect(verifyButton()).toBeEnabled();
    await user.clear(screen.getByLabelText('E-mail'));
    await user.type(screen.getByLabelText('E-mail'), '   ');
    expect(verifyButton()).toBeDisabled();
  });

  it('sends a code (busy meanwhile), asks for it, checks it once complete and shows Verified', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    const record = createHarnessRecord();
    const contents = { ...email, on_verified: [{ type: 'refresh' as const }] };
    render(
      harness({
        component: EmailField,
        contents,
        send,
        record,
        values: { email_address: ' Owner@Example.com' },
      }),
    );
    await user.click(verifyButton());
    expect(calls).toHaveLength(1);
    expect(calls[0]!.endpoint).toBe(email.send_endpoint);
    expect(calls[0]!.body).toEqual({ channel: 'email', value: ' Owner@Example.com' });
    expect(verifyButton()).toHaveAttribute('aria-busy', 'true');
    expect(verifyButton()).toBeDisabled();

    await act(async () => calls[0]!.resolve(sent('owner@example.com')));
    const code = screen.getByRole('textbox', { name: 'Verification code' });
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('maxlength', '4');
    expect(screen.getByText('owner@example.com').closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(liveRegion()).toHaveTextContent('We sent a code to owner@example.com');

    await user.keyboard('12a3');
    expect(code).toHaveValue('123');
    expect(calls).toHaveLength(1);
    await user.keyboard('4');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.endpoint).toBe(email.verify_endpoint);
    expect(calls[1]!.body).toEqual({ channel: 'email', value: ' Owner@Example.com', otp: '1234' });
    expect(screen.getByRole('button', { name: 'Submit' })).toHaveAttribute('aria-busy', 'true');

    const answer = {
      channel: 'email',
      destination: 'owner@example.com',
      verified: true,
      is_another_user_present: false,
    };
    await act(async () => calls[1]!.resolve(answer));
    const badge = screen.getByLabelText('Verified (e-mail address)');
    expect(badge).toHaveTextContent('Verified');
    expect(badge).toHaveFocus();
    expect(screen.getByTestId('CheckCircleIcon')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Verification code' })).not.toBeInTheDocument();
    expect(liveRegion()).toHaveTextContent('Verified');
    expect(record.actions).toEqual([[{ type: 'refresh' }]]);
    expect(record.scopes).toEqual([{ response: { success: true, data: answer } }]);
  });

  it('shows the server’s refusal of the value under Verify, until the value changes', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    render(harness({ component: EmailField, contents: email, send, values: { email_address: 'owner@' } }));
    await user.click(verifyButton());
    await act(async () =>
      calls[0]!.reject(apiError(400, 'ONB_INVALID_EMAIL', 'Please enter the correct email ID')),
    );
    const message = shown('Please enter the correct email ID');
    expect(verifyButton()).toHaveAttribute('aria-describedby', message.id);
    expect(verifyButton()).toBeEnabled();
    expect(liveRegion()).toHaveTextContent('Please enter the correct email ID');
    await user.type(screen.getByLabelText('E-mail'), 'example.com');
    notShown('Please enter the correct email ID');
  });

  it('waits out a cooldown the server asks for, with a visible countdown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { send, calls } = fakeSend();
    render(harness({ component: EmailField, contents: email, send, values: { email_address: 'a@b.co' } }));
    await user.click(verifyButton());
    const wait = 'Please wait 20 seconds before asking for a new code.';
    await act(async () =>
      calls[0]!.reject(apiError(429, 'ONB_OTP_RESEND_COOLDOWN', wait, { retry_after_s: 20 })),
    );
    expect(shown(wait)).toBeInTheDocument();
    expect(screen.getByText('Resend code in 20 s')).toBeInTheDocument();
    expect(verifyButton()).toBeDisabled();
    await act(async () => vi.advanceTimersByTime(5000));
    expect(screen.getByText('Resend code in 15 s')).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(15000));
    expect(screen.queryByText(/Resend code in/)).not.toBeInTheDocument();
    expect(verifyButton()).toBeEnabled();
  });

  it('offers Resend only after resend_after_s, counting down, and sends again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { send, calls } = fakeSend();
    render(harness({ component: EmailField, contents: email, send, values: { email_address: 'a@b.co' } }));
    await user.click(verifyButton());
    await act(async () => calls[0]!.resolve(sent('a@b.co', 30)));
    const waiting = screen.getByRole('button', { name: 'Resend code in 30 s' });
    expect(waiting).toBeDisabled();
    await act(async () => vi.advanceTimersByTime(10000));
    expect(screen.getByRole('button', { name: 'Resend code in 20 s' })).toBeDisabled();
    await act(async () => vi.advanceTimersByTime(20000));
    const resend = screen.getByRole('button', { name: 'Resend code (e-mail address)' });
    expect(resend).toBeEnabled();
    await user.click(resend);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.endpoint).toBe(email.send_endpoint);
    expect(calls[1]!.body).toEqual({ channel: 'email', value: 'a@b.co' });
    await act(async () => calls[1]!.resolve(sent('a@b.co', 60)));
    expect(screen.getByRole('button', { name: 'Resend code in 60 s' })).toBeDisabled();
  });

  it('shows a wrong code’s message, clears the code and checks the next one', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    render(harness({ component: EmailField, contents: email, send, values: { email_address: 'a@b.co' } }));
    await user.click(verifyButton());
    await act(async () => calls[0]!.resolve(sent('a@b.co')));
    const code = screen.getByRole('textbox', { name: 'Verification code' });
    await user.keyboard('1111');
    await act(async () => calls[1]!.reject(apiError(400, 'ONB_OTP_INCORRECT', 'Please enter correct OTP')));
    const message = shown('Please enter correct OTP');
    expect(code).toHaveValue('');
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAttribute('aria-describedby', message.id);
    expect(liveRegion()).toHaveTextContent('Please enter correct OTP');
    await user.keyboard('2222');
    expect(calls).toHaveLength(3);
    expect(calls[2]!.body).toMatchObject({ otp: '2222' });
  });

  it('submits with the button or Enter too', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    render(harness({ component: EmailField, contents: email, send, values: { email_address: 'a@b.co' } }));
    await user.click(verifyButton());
    await act(async () => calls[0]!.resolve(sent('a@b.co')));
    await user.keyboard('5555');
    await act(async () => calls[1]!.reject(apiError(400, 'ONB_OTP_EXPIRED', 'This code has expired.')));
    // The same code again (e.g. after the owner asked the server to extend it) goes only on request.
    await user.keyboard('5555');
    expect(calls).toHaveLength(2);
    await user.keyboard('{Enter}');
    expect(calls).toHaveLength(3);
    await act(async () => calls[2]!.reject(apiError(400, 'ONB_OTP_EXPIRED', 'This code has expired.')));
    await user.keyboard('5555');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(calls).toHaveLength(4);
  });

  it('works from the keyboard alone', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    render(harness({ component: EmailField, contents: email, send }));
    await user.tab();
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
    await user.keyboard('me@example.org');
    await user.tab();
    expect(verifyButton()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(calls).toHaveLength(1);
    await act(async () => calls[0]!.resolve(sent('me@example.org')));
    expect(screen.getByRole('textbox', { name: 'Verification code' })).toHaveFocus();
    await user.keyboard('4321');
    await act(async () =>
      calls[1]!.resolve({
        channel: 'email',
        destination: 'me@example.org',
        verified: true,
        is_another_user_present: false,
      }),
    );
    expect(screen.getByLabelText('Verified (e-mail address)')).toHaveFocus();
  });

  it('drops the badge when the field is edited and shows it again for the verified value', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    render(
      harness({ component: EmailField, contents: email, send, values: { email_address: 'Me@Example.org' } }),
    );
    await user.click(verifyButton());
    await act(async () => calls[0]!.resolve(sent('me@example.org')));
    await user.keyboard('4321');
    await act(async () =>
      calls[1]!.resolve({
        channel: 'email',
        destination: 'me@example.org',
        verified: true,
        is_another_user_present: false,
      }),
    );
    expect(shown('Verified')).toBeInTheDocument();
    const field = screen.getByLabelText('E-mail');
    await user.type(field, 'x');
    notShown('Verified');
    expect(verifyButton()).toBeEnabled();
    await user.clear(field);
    await user.type(field, ' ME@example.ORG ');
    expect(shown('Verified')).toBeInTheDocument();
  });

  it('shows the badge for the value the server already holds as verified (verified_destination)', async () => {
    const user = userEvent.setup();
    render(
      harness({
        component: EmailField,
        contents: verifiedEmail,
        values: { email_address: 'Owner@example.com' },
      }),
    );
    expect(shown('Verified')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Verify/ })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('E-mail'), '.au');
    expect(verifyButton()).toBeEnabled();
  });

  it('compares phone numbers in E.164 with the country of the form, and keeps verified_field in step', async () => {
    const user = userEvent.setup();
    const record = createHarnessRecord();
    render(
      harness({
        component: PhoneField,
        contents: phone,
        record,
        values: { contact_phone: '098765 43210', contact_phone_country: 'IN' },
      }),
    );
    expect(screen.getByLabelText('Verified (phone number)')).toBeInTheDocument();
    expect(record.values.contact_phone_verified).toBe(true);
    await user.type(screen.getByLabelText('Phone'), '9');
    expect(screen.getByRole('button', { name: 'Verify (phone number)' })).toBeEnabled();
    expect(record.values.contact_phone_verified).toBe(false);
    await user.clear(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Phone'), '+91 98765 43210');
    expect(screen.getByLabelText('Verified (phone number)')).toBeInTheDocument();
    expect(record.values.contact_phone_verified).toBe(true);
  });

  it('sends the phone’s country and shows the server’s E.164 destination left to right', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    render(
      harness({
        component: PhoneField,
        contents: { ...phone, verified_destination: null },
        send,
        values: { contact_phone: '99999 01234', contact_phone_country: 'IN' },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Verify (phone number)' }));
    expect(calls[0]!.body).toEqual({ channel: 'phone', value: '99999 01234', country: 'IN' });
    await act(async () => calls[0]!.resolve({ ...sent('+919999901234'), channel: 'phone', otp_length: 4 }));
    expect(screen.getByText('+919999901234').closest('bdi')).toHaveAttribute('dir', 'ltr');
    await user.keyboard('0000');
    expect(calls[1]!.body).toEqual({ channel: 'phone', value: '99999 01234', country: 'IN', otp: '0000' });
    await act(async () =>
      calls[1]!.resolve({
        channel: 'phone',
        destination: '+919999901234',
        verified: true,
        is_another_user_present: false,
      }),
    );
    expect(screen.getByLabelText('Verified (phone number)')).toBeInTheDocument();
  });

  it('on a conflict shows the message, runs conflict_actions with the answer and shows no badge', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    const record = createHarnessRecord();
    render(
      harness({ component: EmailField, contents: email, send, record, values: { email_address: 'x@y.com' } }),
    );
    await user.click(verifyButton());
    await act(async () => calls[0]!.resolve(sent('x@y.com')));
    await user.keyboard('9999');
    const answer = {
      channel: 'email',
      destination: 'x@y.com',
      verified: false,
      is_another_user_present: true,
    };
    await act(async () => calls[1]!.resolve(answer));
    expect(shown(email.texts.conflict_message)).toBeInTheDocument();
    expect(liveRegion()).toHaveTextContent(email.texts.conflict_message);
    notShown('Verified');
    expect(record.actions).toEqual([email.conflict_actions]);
    expect(record.scopes).toEqual([{ response: { success: true, data: answer } }]);
    // The code entry is over; a new code for this value waits for the server's resend time.
    expect(screen.queryByRole('textbox', { name: 'Verification code' })).not.toBeInTheDocument();
    expect(verifyButton()).toBeDisabled();
    expect(screen.getByText('Resend code in 30 s')).toBeInTheDocument();
  });

  it('ends the code entry when the field is edited, and aborts a check in flight', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    render(harness({ component: EmailField, contents: email, send, values: { email_address: 'a@b.co' } }));
    await user.click(verifyButton());
    await act(async () => calls[0]!.resolve(sent('a@b.co')));
    await user.keyboard('1234');
    expect(calls[1]!.signal!.aborted).toBe(false);
    await user.type(screen.getByLabelText('E-mail'), 'm');
    expect(calls[1]!.signal!.aborted).toBe(true);
    expect(screen.queryByRole('textbox', { name: 'Verification code' })).not.toBeInTheDocument();
    expect(verifyButton()).toBeEnabled();
  });

  it('Change leaves the code entry and puts the focus on Verify', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    render(harness({ component: EmailField, contents: email, send, values: { email_address: 'a@b.co' } }));
    await user.click(verifyButton());
    await act(async () => calls[0]!.resolve(sent('a@b.co')));
    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(screen.queryByRole('textbox', { name: 'Verification code' })).not.toBeInTheDocument();
    await waitFor(() => expect(verifyButton()).toHaveFocus());
  });

  it('aborts its request when it unmounts', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    const view = render(
      harness({ component: EmailField, contents: email, send, values: { email_address: 'a@b.co' } }),
    );
    await user.click(verifyButton());
    view.unmount();
    expect(calls[0]!.signal!.aborted).toBe(true);
  });

  it('draws right to left in Arabic with the number isolated left to right', async () => {
    const user = userEvent.setup();
    const { send, calls } = fakeSend();
    const record: HarnessRecord = createHarnessRecord();
    render(
      harness({
        component: PhoneField,
        contents: arabic,
        send,
        record,
        language: 'ar',
        values: { contact_phone: '98765 43210', contact_phone_country: 'IN' },
      }),
    );
    const group = screen.getByRole('group', { name: 'التحقق من رقم الهاتف' });
    expect(group.closest('[dir]')).toHaveAttribute('dir', 'rtl');
    await user.click(screen.getByRole('button', { name: 'تحقّق (رقم الهاتف)' }));
    await act(async () => calls[0]!.resolve({ ...sent('+919876543210'), channel: 'phone' }));
    expect(shown(/أرسلنا رمزًا إلى/)).toBeInTheDocument();
    expect(screen.getByText('+919876543210').closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByRole('textbox', { name: 'رمز التحقق' })).toHaveAttribute('dir', 'ltr');
    expect(screen.getByRole('button', { name: 'إعادة إرسال الرمز خلال 30 ث' })).toBeDisabled();
  });
});
