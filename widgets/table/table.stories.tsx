import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { TableContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { Table } from './table';

/** Args of a table story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<TableContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<TableContents>('table', name);

const meta = {
  title: 'Widgets/Table',
  render: (args) => <HarnessedWidget {...args} component={Table} onDispatch={action('dispatch')} />,
  args: { id: 'table', contents: fixture('fees') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Fees: Story = {};
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
