import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ConfirmationContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { Confirmation } from './confirmation';

describe('confirmation fixtures', () => {
  it.each(goodFixtures('confirmation').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('confirmation', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('confirmation').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('confirmation', env.contents).valid).toBe(false);
    },
  );
});

describe('Confirmation', () => {
  const contents = fixtureContents<ConfirmationContents>('confirmation', 'remove-listing-danger');

  it('is closed unless its popup_id is open', () => {
    render(harness({ component: Confirmation, contents, popupOpenId: 'another' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens with its title and message', () => {
    render(harness({ component: Confirmation, contents, popupOpenId: contents.popup_id }));
    const dialog = screen.getByRole('dialog', { name: 'Remove listing?' });
    expect(dialog).toHaveAccessibleDescription(contents.message!);
  });

  it('shows the message_field text as the message while that field holds a non-blank string', () => {
    const withField = fixtureContents<ConfirmationContents>('confirmation', 'message-field');
    const { unmount } = render(
      harness({
        component: Confirmation,
        contents: withField,
        popupOpenId: 'ota_match',
        values: { ota_match_label: 'Palm Grove, Gurgaon' },
      }),
    );
    expect(screen.getByRole('dialog', { name: 'Is this your property?' })).toHaveAccessibleDescription(
      'Palm Grove, Gurgaon',
    );
    unmount();
    render(
      harness({
        component: Confirmation,
        contents: withField,
        popupOpenId: 'ota_match',
        values: { ota_match_label: ' ' },
      }),
    );
    expect(screen.getByRole('dialog')).toHaveAccessibleDescription(withField.message!);
  });

  it('confirm runs confirm_actions and closes when they succeed', async () => {
    const record = createHarnessRecord();
    render(harness({ component: Confirmation, contents, popupOpenId: contents.popup_id, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove listing' }));
    expect(record.actions).toEqual([contents.confirm_actions]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('stays open when the confirm actions fail', async () => {
    render(
      harness({ component: Confirmation, contents, popupOpenId: contents.popup_id, dispatchResult: false }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Remove listing' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove listing' })).toBeEnabled());
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('cancel runs cancel_actions then closes', async () => {
    const record = createHarnessRecord();
    render(harness({ component: Confirmation, contents, popupOpenId: contents.popup_id, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(record.actions).toEqual([contents.cancel_actions]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Escape cancels too', async () => {
    const record = createHarnessRecord();
    render(harness({ component: Confirmation, contents, popupOpenId: contents.popup_id, record }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(record.actions).toEqual([contents.cancel_actions]);
  });
});
