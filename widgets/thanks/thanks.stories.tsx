import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { ThanksContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { Thanks } from './thanks';

/** Args of a thanks story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<ThanksContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<ThanksContents>('thanks', name);

const meta = {
  title: 'Widgets/Thanks',
  render: (args) => <HarnessedWidget {...args} component={Thanks} onDispatch={action('dispatch')} />,
  args: { id: 'thanks', contents: fixture('completion-360') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Completion360: Story = {};
export const TitleOnly: Story = { args: { contents: fixture('minimal') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
