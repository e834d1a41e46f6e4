import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { LanguageChooserContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { LanguageChooser } from './language-chooser';

/** Args of a language_chooser story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<LanguageChooserContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<LanguageChooserContents>('language_chooser', name);

const meta = {
  title: 'Widgets/LanguageChooser',
  render: (args) => <HarnessedWidget {...args} component={LanguageChooser} onDispatch={action('dispatch')} />,
  args: { id: 'language_chooser', contents: fixture('all-languages') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const List: Story = {};
export const Compact: Story = { args: { contents: fixture('compact') } };
export const TwoLanguages: Story = { args: { contents: fixture('two-languages') } };
export const LongLabels: Story = { args: { contents: fixture('long-label') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic-title') }, globals: { locale: 'ar' } };
export const CompactArabicRtl: Story = { args: { contents: fixture('compact') }, globals: { locale: 'ar' } };
