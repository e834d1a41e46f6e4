import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ExitScreenContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { ExitScreen } from './exit-screen';

describe('exit_screen fixtures', () => {
  it.each(goodFixtures('exit_screen').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('exit_screen', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('exit_screen').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('exit_screen', env.contents).valid).toBe(false);
    },
  );
});

describe('ExitScreen', () => {
  const contents = fixtureContents<ExitScreenContents>('exit_screen', 'in-progress');

  it('shows the title as the h1, the message and the completion as a named progress bar', () => {
    render(harness({ component: ExitScreen, contents }));
    expect(screen.getByRole('region', { name: contents.title })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: contents.title })).toBeInTheDocument();
    expect(screen.getByText(contents.message!)).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: 'Listing 60% complete' });
    expect(bar).toHaveAttribute('aria-valuenow', '60');
  });

  it('lists the open tasks under their heading', () => {
    render(harness({ component: ExitScreen, contents }));
    const list = screen.getByRole('list', { name: 'Still to do' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(contents.remaining);
  });

  it('offers staying first, then leaving, and runs each one’s actions', async () => {
    const record = createHarnessRecord();
    render(harness({ component: ExitScreen, contents, record }));
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Continue listing', 'Go to My Properties']);
    await userEvent.click(buttons[1]!);
    expect(record.actions).toEqual([contents.leave_action.actions]);
    await userEvent.click(buttons[0]!);
    expect(record.actions[1]).toEqual(contents.stay_action.actions);
  });

  it('has no bar and no list without a completion or open tasks', () => {
    render(
      harness({
        component: ExitScreen,
        contents: fixtureContents<ExitScreenContents>('exit_screen', 'no-progress'),
      }),
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.getAllByRole('button')).toHaveLength(2);
  });
});
