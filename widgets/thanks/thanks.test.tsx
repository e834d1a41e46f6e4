import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ThanksContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { Thanks } from './thanks';

describe('thanks fixtures', () => {
  it.each(goodFixtures('thanks').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('thanks', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('thanks').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('thanks', env.contents).valid).toBe(false);
    },
  );
});

describe('Thanks', () => {
  const contents = fixtureContents<ThanksContents>('thanks', 'completion-360');

  it('names its section by the title, an h1, with a decorative mark', () => {
    const { container } = render(harness({ component: Thanks, contents }));
    const section = screen.getByRole('region', { name: contents.title });
    expect(within(section).getByRole('heading', { level: 1, name: contents.title })).toBeInTheDocument();
    expect(container.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('shows the details as terms and values, a phone number isolated left to right', async () => {
    render(harness({ component: Thanks, contents }));
    const terms = screen.getAllByRole('term').map((t) => t.textContent);
    expect(terms).toEqual(['Lead ID', 'Log in with']);
    const values = screen.getAllByRole('definition');
    expect(values[0]).toHaveTextContent('POGMPGGQR9KE');
    // The number is shown in its international format once libphonenumber-js has loaded.
    const number = await within(values[1]!).findByText('+91 91021 30008');
    expect(number.closest('bdi')).toHaveAttribute('dir', 'ltr');
  });

  it('lists the next steps in order under their heading', () => {
    render(harness({ component: Thanks, contents }));
    const list = screen.getByRole('list', { name: contents.next_steps_title });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(contents.next_steps);
    expect(list.tagName).toBe('OL');
  });

  it('runs the primary and the secondary action', async () => {
    const record = createHarnessRecord();
    render(harness({ component: Thanks, contents, record }));
    await userEvent.click(screen.getByRole('button', { name: contents.primary_action!.label }));
    await userEvent.click(screen.getByRole('button', { name: contents.secondary_action!.label }));
    expect(record.actions).toEqual([contents.primary_action!.actions, contents.secondary_action!.actions]);
  });

  it('draws the title alone with nothing else', () => {
    render(harness({ component: Thanks, contents: fixtureContents<ThanksContents>('thanks', 'minimal') }));
    expect(screen.getByRole('heading', { level: 1, name: 'Thank you' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByRole('term')).toBeNull();
  });
});
