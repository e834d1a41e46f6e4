import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { ExitScreenContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { ExitScreen } from './exit-screen';

/** Args of an exit_screen story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<ExitScreenContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<ExitScreenContents>('exit_screen', name);

const meta = {
  title: 'Widgets/ExitScreen',
  render: (args) => <HarnessedWidget {...args} component={ExitScreen} onDispatch={action('dispatch')} />,
  args: { id: 'exit', contents: fixture('in-progress') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const InProgress: Story = {};
export const NoProgress: Story = { args: { contents: fixture('no-progress') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
