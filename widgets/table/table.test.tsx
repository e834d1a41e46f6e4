import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { TableContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { harness } from '../test-harness';
import { Table } from './table';

describe('table fixtures', () => {
  it.each(goodFixtures('table').map((f) => [f.name, f.envelope] as const))('good/%s validates', (_n, env) => {
    expect(checkContents('table', env.contents).errors).toEqual([]);
  });
  it.each(errorFixtures('table').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('table', env.contents).valid).toBe(false);
    },
  );
});

describe('Table (issue 12 item 16)', () => {
  it('draws a table named by its caption, each label a row header and its value a cell', () => {
    const contents = fixtureContents<TableContents>('table', 'fees');
    render(harness({ component: Table, contents }));
    const table = screen.getByRole('table', { name: 'Commercial terms' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[0]!).getByRole('rowheader', { name: 'Commission charges' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('cell')).toHaveTextContent('18%');
    expect(within(rows[2]!).getByRole('rowheader', { name: 'One-time fee' })).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('cell')).toHaveTextContent('₹0.00');
  });

  it('draws Arabic right to left with the values isolated', () => {
    const contents = fixtureContents<TableContents>('table', 'arabic');
    render(harness({ component: Table, contents, language: 'ar' }));
    const cell = within(screen.getByRole('table', { name: 'الشروط التجارية' })).getAllByRole('cell')[0]!;
    expect(cell.querySelector('bdi')).not.toBeNull();
  });
});
