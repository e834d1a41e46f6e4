import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ItemListContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { ItemList, parseWhole } from './item-list';

describe('item_list fixtures', () => {
  it('has good and error fixtures', () => {
    expect(goodFixtures('item_list').length).toBeGreaterThan(0);
    expect(errorFixtures('item_list').length).toBeGreaterThan(0);
  });
  it.each(goodFixtures('item_list').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('item_list', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('item_list').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('item_list', env.contents).valid).toBe(false);
    },
  );
});

const rooms = fixtureContents<ItemListContents>('item_list', 'room-categories');
const beds = fixtureContents<ItemListContents>('item_list', 'no-total');

describe('parseWhole', () => {
  it('keeps digits only (Arabic-Indic ones too), as a number', () => {
    expect(parseWhole('12', false)).toBe(12);
    expect(parseWhole('1a2.5', false)).toBe(125);
    expect(parseWhole('١٢', false)).toBe(12);
    expect(parseWhole('', false)).toBeUndefined();
    expect(parseWhole('-4', false)).toBe(4);
    expect(parseWhole('-4', true)).toBe(-4);
  });
});

describe('ItemList', () => {
  it('is a group named by its label with one card per item, headed item_label with its position', () => {
    render(
      harness({
        component: ItemList,
        contents: rooms,
        values: {
          room_categories: [
            { name: 'Deluxe', count: 10 },
            { name: 'Suite', count: 4 },
          ],
        },
      }),
    );
    const list = screen.getByRole('group', { name: 'Room categories' });
    expect(list).toHaveAccessibleDescription(
      'Group your rooms by category; the counts must add up to your total rooms',
    );
    const second = within(list).getByRole('group', { name: 'Category 2' });
    expect(within(second).getByRole('heading', { level: 2 })).toHaveTextContent('Category 2');
    expect(within(second).getByRole('textbox', { name: 'Category name' })).toHaveValue('Suite');
    const count = within(second).getByRole('textbox', { name: 'Rooms' });
    expect(count).toHaveValue('4');
    expect(count).toHaveAttribute('inputmode', 'numeric');
    expect(within(second).getByRole('textbox', { name: 'Category name' })).toHaveAttribute('maxlength', '60');
    expect(within(second).getByRole('button', { name: 'Remove Category 2' })).toBeInTheDocument();
  });

  it('adds an item, focuses its first field, and stores text as text and numbers as numbers', async () => {
    const record = createHarnessRecord();
    render(harness({ component: ItemList, contents: rooms, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a category' }));
    const card = screen.getByRole('group', { name: 'Category 1' });
    const name = within(card).getByRole('textbox', { name: 'Category name' });
    expect(name).toHaveFocus();
    await userEvent.type(name, 'Deluxe');
    await userEvent.type(within(card).getByRole('textbox', { name: 'Rooms' }), '1x2');
    expect(record.values.room_categories).toEqual([{ name: 'Deluxe', count: 12 }]);
    await userEvent.clear(within(card).getByRole('textbox', { name: 'Rooms' }));
    expect(record.values.room_categories).toEqual([{ name: 'Deluxe' }]);
  });

  it('removes an item by its button and renumbers the others', async () => {
    const record = createHarnessRecord();
    render(
      harness({
        component: ItemList,
        contents: rooms,
        record,
        values: {
          room_categories: [
            { name: 'Deluxe', count: 10 },
            { name: 'Suite', count: 4 },
            { name: 'Family', count: 2 },
          ],
        },
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Remove Category 2' }));
    expect(record.values.room_categories).toEqual([
      { name: 'Deluxe', count: 10 },
      { name: 'Family', count: 2 },
    ]);
    const second = screen.getByRole('group', { name: 'Category 2' });
    expect(within(second).getByRole('textbox', { name: 'Category name' })).toHaveValue('Family');
    expect(screen.queryByRole('group', { name: 'Category 3' })).not.toBeInTheDocument();
    // Removing the last item sends the focus to the add button.
    await userEvent.click(screen.getByRole('button', { name: 'Remove Category 2' }));
    expect(screen.getByRole('button', { name: 'Add a category' })).toHaveFocus();
  });

  it('disables the add button at max_items', async () => {
    render(harness({ component: ItemList, contents: beds, values: { beds: [{ kind: 'King' }, {}] } }));
    const add = screen.getByRole('button', { name: 'Add a bed' });
    expect(add).toBeEnabled();
    await userEvent.click(add);
    expect(add).toBeDisabled();
    expect(screen.getAllByRole('group', { name: /^Bed \d$/ })).toHaveLength(3);
    expect(screen.getByText('You have reached the maximum of 3')).toBeInTheDocument();
  });

  it('shows the live total with {{total}} and {{expected}} filled', async () => {
    render(
      harness({
        component: ItemList,
        contents: rooms,
        values: { room_categories: [{ name: 'Deluxe', count: 10 }] },
      }),
    );
    const line = screen.getByText('10 of 24 rooms');
    expect(line).toHaveAttribute('aria-live', 'polite');
    await userEvent.click(screen.getByRole('button', { name: 'Add a category' }));
    await userEvent.type(
      within(screen.getByRole('group', { name: 'Category 2' })).getByRole('textbox', { name: 'Rooms' }),
      '14',
    );
    expect(line).toHaveTextContent('24 of 24 rooms');
  });

  it('has no total line without total', () => {
    render(harness({ component: ItemList, contents: beds }));
    expect(document.querySelector('[aria-live]')).toBeNull();
    expect(screen.getByText('Nothing added yet')).toBeInTheDocument();
  });

  it('shows the form error under the list, invalid and described, and clears it on a change', async () => {
    const message = 'The room counts add up to 10, but the property has 24 rooms';
    render(
      harness({
        component: ItemList,
        contents: rooms,
        values: { room_categories: [{ name: 'Deluxe', count: 10 }] },
        errors: { room_categories: message },
      }),
    );
    const list = screen.getByRole('group', { name: 'Room categories' });
    expect(list).toHaveAttribute('aria-invalid', 'true');
    expect(list).toHaveAccessibleDescription(message);
    await userEvent.type(screen.getByRole('textbox', { name: 'Rooms' }), '4');
    expect(list).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByText(message)).not.toBeInTheDocument();
  });

  it('draws Arabic right to left', () => {
    render(
      harness({
        component: ItemList,
        contents: fixtureContents<ItemListContents>('item_list', 'arabic'),
        values: { room_categories: [{ name: 'ديلوكس', count: 5 }] },
        language: 'ar',
      }),
    );
    const list = screen.getByRole('group', { name: 'فئات الغرف' });
    const card = within(list).getByRole('group', { name: 'الفئة 1' });
    expect(within(card).getByRole('button', { name: 'إزالة الفئة 1' })).toBeInTheDocument();
    expect(screen.getByText('5 من 12 غرفة')).toBeInTheDocument();
    expect(list.closest('[dir]')).toHaveAttribute('dir', 'rtl');
  });
});
