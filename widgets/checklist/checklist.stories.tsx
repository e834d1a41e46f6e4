import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { ChecklistContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { Checklist } from './checklist';

/** Args of a checklist story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<ChecklistContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<ChecklistContents>('checklist', name);

const meta = {
  title: 'Widgets/Checklist',
  render: (args) => <HarnessedWidget {...args} component={Checklist} onDispatch={action('dispatch')} />,
  args: { id: 'checklist', contents: fixture('new-lead') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A lead just created: 0 %, only basic info can be added, the other eight tasks not available yet. */
export const NewLead: Story = {};
/** Basic info done: 11 %, it moved to 'Completed Tasks' with 'Edit'. */
export const BasicInfoDone: Story = { args: { contents: fixture('basic-info-done') } };
export const AllDone: Story = { args: { contents: fixture('all-done') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
