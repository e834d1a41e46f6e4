import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EmptyStateContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { EmptyState } from './empty-state';

describe('empty_state fixtures', () => {
  it.each(goodFixtures('empty_state').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('empty_state', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('empty_state').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('empty_state', env.contents).valid).toBe(false);
    },
  );
});

describe('EmptyState', () => {
  it('shows the title as a heading, the description, a decorative illustration and runs its action', async () => {
    const record = createHarnessRecord();
    const contents = fixtureContents<EmptyStateContents>('empty_state', 'no-hotels');
    const { container } = render(harness({ component: EmptyState, contents, record }));
    expect(screen.getByRole('heading', { name: 'You have no Hotels associated' })).toBeInTheDocument();
    expect(screen.getByText(contents.description!)).toBeInTheDocument();
    expect(container.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Add property' }));
    expect(record.actions).toEqual([contents.action!.actions]);
  });

  it('has no button without an action', () => {
    render(
      harness({
        component: EmptyState,
        contents: fixtureContents<EmptyStateContents>('empty_state', 'no-results'),
      }),
    );
    expect(screen.getByRole('heading', { name: 'No data to show' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
