import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { InputContents } from '../../schemas/generated/types';
import { IDENTIFIER_CHECKS } from '../../schemas/identifiers';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { Input } from './input';

/** Args of a input story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<InputContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<InputContents>('input', name);

const meta = {
  title: 'Widgets/Input',
  render: (args) => <HarnessedWidget {...args} component={Input} onDispatch={action('dispatch')} />,
  args: { id: 'input', contents: fixture('phone') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Phone: Story = {};
export const PhoneWithError: Story = { args: { errors: { phone: 'Please enter the correct phone number' } } };
export const PhonePrefilled: Story = { args: { values: { phone: '+91 98765 43210', country_code: 'IN' } } };
export const Otp: Story = { args: { contents: fixture('otp'), values: { phone: '+91 98765 43210' } } };
export const OtpWithError: Story = {
  args: {
    contents: fixture('otp'),
    values: { phone: '+91 98765 43210', otp: '123456' },
    errors: { otp: 'Please enter correct OTP' },
  },
};
export const OtpFourDigits: Story = { args: { contents: fixture('otp-property') } };
export const Email: Story = { args: { contents: fixture('email'), values: { contact_by: 'email' } } };
export const EmailWithError: Story = {
  args: {
    contents: fixture('email'),
    values: { email: 'owner@' },
    errors: { email: 'Please enter the correct email ID' },
  },
};
export const Multiline: Story = { args: { contents: fixture('multiline') } };
export const MultilinePrefilled: Story = {
  args: { contents: fixture('multiline'), values: { description: 'Sea view rooms, a rooftop pool.' } },
};
export const NumberField: Story = { args: { contents: fixture('number') } };
export const NumberWithError: Story = {
  args: {
    contents: fixture('number'),
    values: { total_rooms: 0 },
    errors: { total_rooms: 'Enter a whole number between 1 and 1000' },
  },
};
export const MultilineArabicRtl: Story = {
  args: { contents: fixture('arabic-multiline') },
  globals: { locale: 'ar' },
};
export const NumberArabicRtl: Story = {
  args: { contents: fixture('arabic-number') },
  globals: { locale: 'ar' },
};
export const PlainText: Story = { args: { contents: fixture('text') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const PhoneArabicRtl: Story = {
  args: { contents: fixture('arabic-phone') },
  globals: { locale: 'ar' },
};
export const OtpArabicRtl: Story = {
  args: { contents: fixture('arabic-otp'), values: { phone: '+971 50 123 4567' } },
  globals: { locale: 'ar' },
};

/**
 * Args of an identifier story: its fixture, and a stand-in for the engine's check on blur (the real rule of
 * schemas/identifiers with the fixture's messages) so that the story reacts as the app does.
 */
function identifierArgs(name: string): Args {
  const contents = fixture(name);
  const kind = contents.identifier ?? 'pan';
  return {
    contents,
    validate: (field, values) => {
      const result = IDENTIFIER_CHECKS[kind](String(values[field] ?? ''));
      if (result.valid) return undefined;
      const reason = result.reason === 'empty' ? 'pattern' : result.reason;
      return contents.identifier_messages?.[reason] ?? contents.invalid_message ?? 'Invalid Input';
    },
  };
}

export const Pan: Story = { args: identifierArgs('pan') };
export const PanWithError: Story = {
  args: {
    ...identifierArgs('pan'),
    values: { pan_number: 'ABCPE1234' },
    errors: { pan_number: 'A PAN has 10 characters' },
  },
};
export const Gstin: Story = { args: identifierArgs('gstin') };
export const GstinChecksumError: Story = {
  args: {
    ...identifierArgs('gstin'),
    values: { gstin: '27AAPFU0939F1ZW' },
    errors: { gstin: 'This GSTIN is not valid. Please check it for typos' },
  },
};
export const Aadhaar: Story = { args: identifierArgs('aadhaar') };
export const DrivingLicence: Story = { args: identifierArgs('driving-licence') };
export const PanArabicRtl: Story = { args: identifierArgs('arabic-pan'), globals: { locale: 'ar' } };
