import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { ChoiceContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { Choice } from './choice';

/** Args of a choice story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<ChoiceContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<ChoiceContents>('choice', name);

const meta = {
  title: 'Widgets/Choice',
  render: (args) => <HarnessedWidget {...args} component={Choice} onDispatch={action('dispatch')} />,
  args: { id: 'choice', contents: fixture('property-type') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Property type as cards (label and description). */
export const PropertyTypeCards: Story = {};
export const PropertyTypeChosen: Story = { args: { values: { property_type: 'holiday_home' } } };
export const PropertyTypeWithError: Story = {
  args: { errors: { property_type: 'Please choose a property type' } },
};
/** Sub types as chips, only those of the chosen type (depends_on). */
export const SubTypeChips: Story = {
  args: { contents: fixture('sub-type'), values: { property_type: 'hotel', property_sub_type: 'resort' } },
};
export const SubTypeOfHolidayHome: Story = {
  args: { contents: fixture('sub-type'), values: { property_type: 'holiday_home' } },
};
export const WithoutGroups: Story = { args: { contents: fixture('no-group') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
