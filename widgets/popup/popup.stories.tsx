import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { PopupContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { Popup } from './popup';

/** Args of a popup story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<PopupContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<PopupContents>('popup', name);

const meta = {
  title: 'Widgets/Popup',
  render: (args) => <HarnessedWidget {...args} component={Popup} onDispatch={action('dispatch')} />,
  args: { id: 'popup', contents: fixture('success') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Draws nothing: the toast it asks for shows in the Actions panel (the shell draws it in the app). */
export const Success: Story = {};
export const DefaultTimer: Story = { args: { contents: fixture('default-timer') } };
export const ErrorStatus: Story = { args: { contents: fixture('error') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
