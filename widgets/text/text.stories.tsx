import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { TextContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { Text } from './text';

/** Args of a text story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<TextContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<TextContents>('text', name);

const meta = {
  title: 'Widgets/Text',
  render: (args) => <HarnessedWidget {...args} component={Text} onDispatch={action('dispatch')} />,
  args: { id: 'text', contents: fixture('title') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Title: Story = {};
export const Body: Story = { args: { contents: fixture('body') } };
export const CaptionCentered: Story = { args: { contents: fixture('caption-centered') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicTitleRtl: Story = {
  args: { contents: fixture('arabic-title') },
  globals: { locale: 'ar' },
};
export const ArabicSubtitleRtl: Story = {
  args: { contents: fixture('arabic-subtitle') },
  globals: { locale: 'ar' },
};
/** value_field: the name a server answer put in the form replaces the fallback text. */
export const FromFormField: Story = {
  args: { contents: fixture('value-field'), values: { matched_property_name: 'Sea View Residency' } },
};
/** value_field while the field is still empty: the fallback text. */
export const FromEmptyFormField: Story = { args: { contents: fixture('value-field') } };
