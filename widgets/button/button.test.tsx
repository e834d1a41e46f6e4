import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ButtonContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { Button } from './button';

describe('button fixtures', () => {
  it.each(goodFixtures('button').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('button', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('button').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('button', env.contents).valid).toBe(false);
    },
  );
});

describe('Button', () => {
  it('runs its actions when pressed', async () => {
    const record = createHarnessRecord();
    const contents = fixtureContents<ButtonContents>('button', 'continue');
    render(harness({ component: Button, contents, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(record.actions).toEqual([contents.actions]);
  });

  it('is busy and disabled while its actions run, then enabled again', async () => {
    let finish: (ok: boolean) => void = () => {};
    const record = createHarnessRecord();
    render(
      harness({
        component: Button,
        contents: fixtureContents<ButtonContents>('button', 'continue'),
        record,
        dispatchResult: () => new Promise<boolean>((resolve) => (finish = resolve)),
      }),
    );
    const button = screen.getByRole('button', { name: 'Continue' });
    await userEvent.click(button);
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    fireEvent.click(button);
    expect(record.actions).toHaveLength(1);
    await act(async () => finish(true));
    expect(button).toBeEnabled();
    expect(button).toHaveAttribute('aria-busy', 'false');
  });

  it('is disabled while disabled_when holds over the form', async () => {
    const contents = fixtureContents<ButtonContents>('button', 'send-otp');
    const { unmount } = render(harness({ component: Button, contents }));
    expect(screen.getByRole('button', { name: 'Send OTP' })).toBeDisabled();
    unmount();
    render(harness({ component: Button, contents, values: { phone: '+91 98765 43210' } }));
    expect(screen.getByRole('button', { name: 'Send OTP' })).toBeEnabled();
  });
});
