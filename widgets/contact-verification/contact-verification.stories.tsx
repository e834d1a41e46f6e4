import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { userEvent, within } from 'storybook/test';
import { TextField } from '@mui/material';
import type { ContactVerificationContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget } from '../test-harness';
import type { Send, WidgetProps } from '../widget-props';
import { ContactVerification } from './contact-verification';

const fixture = (name: string) => fixtureContents<ContactVerificationContents>('contact_verification', name);

/** How the fake server of a story answers: the code 1234 is right, any other is wrong. */
type Server = 'answers' | 'hangs_on_send' | 'hangs_on_verify' | 'refuses_value' | 'cooldown' | 'conflict';

const later = <T,>(value: T, ms = 700) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const never = () => new Promise<never>(() => undefined);

/** An error shaped like the API client's ApiError. */
function apiError(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return Object.assign(new Error(message), {
    name: 'ApiError',
    status,
    code,
    body: { success: false, error: { code, message, ...extra } },
  });
}

/** Destination the server would answer (kyc-contract: e-mail lower-cased; a phone number in E.164). */
function destinationOf(body: Readonly<Record<string, unknown>>): string {
  const value = String(body.value ?? '').trim();
  if (body.channel === 'email') return value.toLowerCase();
  const digits = value.replace(/\D/g, '');
  return value.startsWith('+') ? `+${digits}` : `+91${digits.replace(/^0/, '')}`;
}

function fakeServer(server: Server): Send {
  const log = action('send');
  return async (endpoint, body) => {
    log(endpoint, body);
    const destination = destinationOf(body);
    const channel = body.channel;
    if (endpoint.endsWith('/otp')) {
      if (server === 'hangs_on_send') return never();
      if (server === 'refuses_value') {
        await later(null, 500);
        throw apiError(400, 'ONB_INVALID_EMAIL', 'Please enter the correct email ID', {});
      }
      if (server === 'cooldown') {
        await later(null, 500);
        throw apiError(
          429,
          'ONB_OTP_RESEND_COOLDOWN',
          'Please wait 25 seconds before asking for a new code.',
          {
            retry_after_s: 25,
          },
        );
      }
      return later({ channel, destination, otp_length: 4, expires_in_s: 600, resend_after_s: 30 });
    }
    if (server === 'hangs_on_verify') return never();
    await later(null);
    if (body.otp !== '1234') throw apiError(400, 'ONB_OTP_INCORRECT', 'Please enter correct OTP');
    const conflict = server === 'conflict';
    return { channel, destination, verified: !conflict, is_another_user_present: conflict };
  };
}

/** The form's own field (an input widget on the KYC screen), drawn above the verification. */
function withField(label: string) {
  return function FieldAndVerification(props: WidgetProps<ContactVerificationContents>) {
    const { form, contents } = props;
    const value = form.value(contents.field);
    return (
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        <TextField
          label={label}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => form.setValue(contents.field, e.target.value)}
          fullWidth
          slotProps={{ htmlInput: { dir: contents.channel === 'phone' ? 'ltr' : undefined } }}
        />
        <ContactVerification {...props} />
      </div>
    );
  };
}
const EmailField = withField('E-mail');
const PhoneField = withField('Contact number');

interface Args {
  contents: ContactVerificationContents;
  server: Server;
  values: Record<string, unknown>;
}

function Story({ contents, server, values }: Args) {
  return (
    <HarnessedWidget
      id={contents.channel === 'phone' ? 'phone_verification' : 'email_verification'}
      component={contents.channel === 'phone' ? PhoneField : EmailField}
      contents={contents}
      values={values}
      send={fakeServer(server)}
      onDispatch={action('dispatch')}
    />
  );
}

const meta = {
  title: 'Widgets/Contact verification',
  render: (args) => <Story key={`${args.server} ${JSON.stringify(args.values)}`} {...args} />,
  args: { contents: fixture('email'), server: 'answers', values: { email_address: 'owner@example.com' } },
  argTypes: {
    server: {
      control: 'select',
      options: ['answers', 'hangs_on_send', 'hangs_on_verify', 'refuses_value', 'cooldown', 'conflict'],
    },
  },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type StoryT = StoryObj<typeof meta>;

type Canvas = ReturnType<typeof within>;
const clickVerify = async (canvas: Canvas) =>
  userEvent.click(await canvas.findByRole('button', { name: /^Verify/ }));
const typeCode = async (canvas: Canvas, code: string) =>
  userEvent.type(await canvas.findByRole('textbox', { name: 'Verification code' }, { timeout: 3000 }), code);

/** Nothing typed yet: Verify is disabled. */
export const Idle: StoryT = { args: { values: {} } };
/** A value typed: Verify is enabled (the fake server's right code is 1234). */
export const Ready: StoryT = {};
/** The code is being sent: the button is busy. */
export const Sending: StoryT = {
  args: { server: 'hangs_on_send' },
  play: async ({ canvasElement }) => clickVerify(within(canvasElement)),
};
/** The code was sent: 'We sent a code to …', the code input, Change, and Resend with its countdown. */
export const CodeEntry: StoryT = {
  play: async ({ canvasElement }) => clickVerify(within(canvasElement)),
};
/** The complete code is being checked. */
export const Verifying: StoryT = {
  args: { server: 'hangs_on_verify' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await clickVerify(canvas);
    await typeCode(canvas, '1234');
  },
};
/** The right code: the Verified badge. Edit the e-mail to see it go, type it back to see it return. */
export const VerifiedAfterCode: StoryT = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await clickVerify(canvas);
    await typeCode(canvas, '1234');
  },
};
/** The server already holds this e-mail as verified (verified_destination). */
export const AlreadyVerified: StoryT = {
  args: { contents: fixture('verified-email'), values: { email_address: 'Owner@Example.com' } },
};
/** A wrong code: the server's message under the input, which is cleared for the next try. */
export const WrongCode: StoryT = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await clickVerify(canvas);
    await typeCode(canvas, '0000');
  },
};
/** The server refuses the value ('Please enter the correct email ID'). */
export const ValueRefused: StoryT = {
  args: { server: 'refuses_value', values: { email_address: 'owner@example' } },
  play: async ({ canvasElement }) => clickVerify(within(canvasElement)),
};
/** Too soon after the last code: the server's wait, with a countdown before Verify is enabled again. */
export const Cooldown: StoryT = {
  args: { server: 'cooldown' },
  play: async ({ canvasElement }) => clickVerify(within(canvasElement)),
};
/** The right code, but the e-mail is another account's: the message, and conflict_actions run. */
export const Conflict: StoryT = {
  args: { server: 'conflict' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await clickVerify(canvas);
    await typeCode(canvas, '1234');
  },
};
/** A phone number (country from contact_phone_country), already verified: edit it to verify another. */
export const Phone: StoryT = {
  args: {
    contents: fixture('phone'),
    values: { contact_phone: '98765 43210', contact_phone_country: 'IN' },
  },
};
export const LongText: StoryT = {
  args: { contents: fixture('long-text') },
  play: async ({ canvasElement }) => clickVerify(within(canvasElement)),
};
export const ArabicRtl: StoryT = {
  args: {
    contents: fixture('arabic'),
    values: { contact_phone: '98765 43210', contact_phone_country: 'IN' },
  },
  globals: { locale: 'ar' },
};
/** Arabic, right to left, with the code sent: the E.164 number stays left to right inside the sentence. */
export const ArabicCodeEntry: StoryT = {
  args: {
    contents: fixture('arabic'),
    values: { contact_phone: '98765 43210', contact_phone_country: 'IN' },
  },
  globals: { locale: 'ar' },
  play: async ({ canvasElement }) =>
    userEvent.click(await within(canvasElement).findByRole('button', { name: /^تحقّق/ })),
};
