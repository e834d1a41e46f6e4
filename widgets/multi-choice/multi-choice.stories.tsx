import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { MultiChoiceContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { MultiChoice } from './multi-choice';

/** Args of a multi_choice story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<MultiChoiceContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<MultiChoiceContents>('multi_choice', name);

const meta = {
  title: 'Widgets/MultiChoice',
  render: (args) => <HarnessedWidget {...args} component={MultiChoice} onDispatch={action('dispatch')} />,
  args: { id: 'amenities', contents: fixture('amenities') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Amenities under their group headings; mandatory ones tagged. */
export const Amenities: Story = {};
export const SomeSelected: Story = { args: { values: { amenities: ['wifi', 'hot_water', 'cctv'] } } };
export const WithError: Story = {
  args: { errors: { amenities: 'Please select every mandatory amenity' } },
};
export const WithoutGroups: Story = { args: { contents: fixture('no-group') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = {
  args: { contents: fixture('arabic'), values: { amenities: ['wifi'] } },
  globals: { locale: 'ar' },
};
