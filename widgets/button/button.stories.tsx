import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { ButtonContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { Button } from './button';

/** Args of a button story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<ButtonContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<ButtonContents>('button', name);

const meta = {
  title: 'Widgets/Button',
  render: (args) => <HarnessedWidget {...args} component={Button} onDispatch={action('dispatch')} />,
  args: { id: 'button', contents: fixture('continue') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const SendOtpDisabledUntilPhone: Story = { args: { contents: fixture('send-otp') } };
export const SendOtpEnabled: Story = {
  args: { contents: fixture('send-otp'), values: { phone: '+91 98765 43210' } },
};
/** Its actions never finish: press it to see the busy state. */
export const Busy: Story = { args: { dispatchResult: () => new Promise<boolean>(() => {}) } };
export const OutlinedInline: Story = { args: { contents: fixture('outlined-inline') } };
export const TextVariant: Story = { args: { contents: fixture('text-variant') } };
export const LongLabel: Story = { args: { contents: fixture('long-label') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
