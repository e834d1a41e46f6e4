import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChecklistContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { Checklist } from './checklist';

describe('checklist fixtures', () => {
  it.each(goodFixtures('checklist').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('checklist', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('checklist').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('checklist', env.contents).valid).toBe(false);
    },
  );
});

describe('Checklist', () => {
  it('shows the heading and a progress bar with the completion percentage and its label', () => {
    const contents = fixtureContents<ChecklistContents>('checklist', 'basic-info-done');
    render(harness({ component: Checklist, contents }));
    expect(screen.getByRole('heading', { level: 2, name: 'Complete your listing' })).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: '11% complete' });
    expect(bar).toHaveAttribute('aria-valuenow', '11');
  });

  it("lists pending tasks with 'Add', and disabled ones with their description and no button", () => {
    const contents = fixtureContents<ChecklistContents>('checklist', 'new-lead');
    render(harness({ component: Checklist, contents }));
    const pending = screen.getByRole('region', { name: 'Tasks to complete' });
    expect(within(pending).getAllByRole('listitem')).toHaveLength(9);
    expect(within(pending).getAllByRole('button')).toHaveLength(1);
    expect(within(pending).getByRole('button', { name: 'Add Basic info' })).toBeEnabled();
    const address = within(pending).getByRole('heading', { name: 'Address' }).closest('li')!;
    expect(address).toHaveTextContent('Available in an upcoming update');
    expect(within(address as HTMLElement).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Completed Tasks' })).not.toBeInTheDocument();
  });

  it("moves a completed task to 'Completed Tasks' with its 'Edit' button", () => {
    const contents = fixtureContents<ChecklistContents>('checklist', 'basic-info-done');
    render(harness({ component: Checklist, contents }));
    const done = screen.getByRole('region', { name: 'Completed Tasks' });
    expect(within(done).getAllByRole('listitem')).toHaveLength(1);
    expect(within(done).getByRole('button', { name: 'Edit Basic info' })).toBeInTheDocument();
    const pending = screen.getByRole('region', { name: 'Tasks to complete' });
    expect(within(pending).queryByRole('heading', { name: 'Basic info' })).not.toBeInTheDocument();
    expect(within(pending).getAllByRole('listitem')).toHaveLength(8);
  });

  it("makes only the next task's button primary; the other tasks' buttons are secondary (issue 12 item 19)", () => {
    const base = fixtureContents<ChecklistContents>('checklist', 'basic-info-done');
    const contents: ChecklistContents = {
      ...base,
      tasks: base.tasks.map((task) => ({ ...task, disabled: false })),
    };
    render(harness({ component: Checklist, contents }));
    const next = screen.getByRole('button', { name: /^Add Address/ });
    expect(next.className).toMatch(/MuiButton-contained/);
    const others = screen.getAllByRole('button').filter((b) => b !== next);
    expect(others.length).toBeGreaterThan(2);
    for (const b of others) {
      expect(b.className).toMatch(/MuiButton-outlined/);
      expect(b.className).not.toMatch(/MuiButton-contained/);
    }
  });

  it("runs a task's actions on its button", async () => {
    const record = createHarnessRecord();
    const contents = fixtureContents<ChecklistContents>('checklist', 'new-lead');
    render(harness({ component: Checklist, contents, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Add Basic info' }));
    expect(record.actions).toEqual([contents.tasks[0]!.actions]);
  });

  it('runs one task at a time: other buttons wait while actions run', async () => {
    let finish: (ok: boolean) => void = () => undefined;
    const contents = fixtureContents<ChecklistContents>('checklist', 'all-done');
    render(
      harness({
        component: Checklist,
        contents,
        dispatchResult: () => new Promise<boolean>((resolve) => (finish = resolve)),
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Edit Address' }));
    expect(screen.getByRole('button', { name: 'Edit Basic info' })).toBeDisabled();
    finish(true);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Basic info' })).toBeEnabled());
  });

  it('says when every task is complete and shows no pending section', () => {
    render(
      harness({
        component: Checklist,
        contents: fixtureContents<ChecklistContents>('checklist', 'all-done'),
      }),
    );
    expect(screen.getByRole('progressbar', { name: '100% complete' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    expect(screen.getByText('Completed')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Tasks to complete' })).not.toBeInTheDocument();
  });

  it('draws Arabic right to left', () => {
    render(
      harness({
        component: Checklist,
        contents: fixtureContents<ChecklistContents>('checklist', 'arabic'),
        language: 'ar',
      }),
    );
    expect(screen.getByRole('progressbar', { name: 'اكتمل 11%' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'تعديل المعلومات الأساسية' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2 }).closest('[dir]')).toHaveAttribute('dir', 'rtl');
  });
});
