import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { ConfirmationContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { Confirmation } from './confirmation';

/** Args of a confirmation story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<ConfirmationContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<ConfirmationContents>('confirmation', name);

const meta = {
  title: 'Widgets/Confirmation',
  render: (args) => <HarnessedWidget {...args} component={Confirmation} onDispatch={action('dispatch')} />,
  args: { id: 'confirmation', contents: fixture('sign-out') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Open: Story = { args: { popupOpenId: 'confirm_sign_out' } };
export const Closed: Story = { args: { popupOpenId: null } };
export const Danger: Story = {
  args: { contents: fixture('remove-listing-danger'), popupOpenId: 'confirm_remove' },
};
/** The confirm actions fail: the dialog stays open. */
export const ConfirmFails: Story = {
  args: { contents: fixture('remove-listing-danger'), popupOpenId: 'confirm_remove', dispatchResult: false },
};
export const LongText: Story = { args: { contents: fixture('long-text'), popupOpenId: 'long' } };
export const ArabicRtl: Story = {
  args: { contents: fixture('arabic'), popupOpenId: 'confirm_ar' },
  globals: { locale: 'ar' },
};
/** The message a server answer put in a form field ('Is this your property?' with the matching property). */
export const MessageFromForm: Story = {
  args: {
    contents: fixture('message-field'),
    popupOpenId: 'ota_match',
    values: { ota_match_label: 'Palm Grove, Gurgaon' },
  },
};
