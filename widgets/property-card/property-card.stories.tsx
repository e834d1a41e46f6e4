import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { PropertyCardContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { PropertyCard } from './property-card';

/** Args of a property_card story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<PropertyCardContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<PropertyCardContents>('property_card', name);

const meta = {
  title: 'Widgets/PropertyCard',
  render: (args) => <HarnessedWidget {...args} component={PropertyCard} onDispatch={action('dispatch')} />,
  args: { id: 'property_card', contents: fixture('in-progress') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const InProgress: Story = {};
export const Inactive: Story = { args: { contents: fixture('inactive') } };
export const ProgramTags: Story = { args: { contents: fixture('program-tags') } };
export const Minimal: Story = { args: { contents: fixture('minimal') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
