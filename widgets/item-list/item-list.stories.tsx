import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { ItemListContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { ItemList } from './item-list';

/** Args of an item_list story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<ItemListContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<ItemListContents>('item_list', name);

const meta = {
  title: 'Widgets/ItemList',
  render: (args) => <HarnessedWidget {...args} component={ItemList} onDispatch={action('dispatch')} />,
  args: { id: 'room_categories', contents: fixture('room-categories') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** No category yet. */
export const Empty: Story = {};
/** Two categories; the live total shows 14 of 24 rooms. */
export const TwoCategories: Story = {
  args: {
    values: {
      room_categories: [
        { name: 'Deluxe', count: 10 },
        { name: 'Suite', count: 4 },
      ],
    },
  },
};
export const WithMismatchError: Story = {
  args: {
    values: { room_categories: [{ name: 'Deluxe', count: 10 }] },
    errors: { room_categories: 'The room counts add up to 10, but the property has 24 rooms' },
  },
};
export const TotalWithoutExpected: Story = {
  args: { contents: fixture('total-without-expected'), values: { room_categories: [{ count: 3 }] } },
};
export const AtMaxItems: Story = {
  args: { contents: fixture('no-total'), values: { beds: [{ kind: 'King' }, { kind: 'Twin' }, {}] } },
};
export const LongText: Story = {
  args: { contents: fixture('long-text'), values: { room_categories: [{ name: 'Deluxe', count: 10 }] } },
};
export const ArabicRtl: Story = {
  args: { contents: fixture('arabic'), values: { room_categories: [{ name: 'ديلوكس', count: 5 }] } },
  globals: { locale: 'ar' },
};
