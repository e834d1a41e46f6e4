import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { EmptyStateContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { EmptyState } from './empty-state';

/** Args of a empty_state story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<EmptyStateContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<EmptyStateContents>('empty_state', name);

const meta = {
  title: 'Widgets/EmptyState',
  render: (args) => <HarnessedWidget {...args} component={EmptyState} onDispatch={action('dispatch')} />,
  args: { id: 'empty_state', contents: fixture('no-hotels') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const NoHotels: Story = {};
export const NoResults: Story = { args: { contents: fixture('no-results') } };
export const ErrorIllustration: Story = { args: { contents: fixture('error') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
