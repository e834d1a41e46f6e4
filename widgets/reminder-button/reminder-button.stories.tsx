import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ReminderButtonContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { ReminderButton } from './reminder-button';

/** Args of a reminder button story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<ReminderButtonContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<ReminderButtonContents>('reminder_button', name);

/**
 * 'Remind me to finish' on the checklist. Press it: the browser asks for permission (Storybook's own
 * origin); the story's server says reminders are not available, so the line under the button says so.
 * Where the browser has refused notifications before, the button starts disabled with that message.
 */
const meta = {
  title: 'Widgets/ReminderButton',
  render: (args) => <HarnessedWidget {...args} component={ReminderButton} />,
  args: {
    id: 'remind_me',
    contents: fixture('remind-me'),
    load: async () => ({ enabled: false, vapid_public_key: null }),
  },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const RemindMe: Story = {};
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
