import { act, render, screen as view } from '@testing-library/react';
import { Provider as JotaiProvider, createStore } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/instance';
import { pushToast } from '../state/atoms';
import { ToastHost } from './toast-host';

afterEach(() => vi.useRealTimers());

describe('ToastHost (SPEC §8, §9)', () => {
  it('shows toasts one after another, errors as alerts, each for its timer', () => {
    vi.useFakeTimers();
    const store = createStore();
    render(
      <JotaiProvider store={store}>
        <I18nextProvider i18n={i18n}>
          <ToastHost />
        </I18nextProvider>
      </JotaiProvider>,
    );
    act(() => {
      pushToast(store, { toast_text: 'Session Expired', status: 'error', timer: 2000 });
      pushToast(store, { toast_text: 'Lead ID copied', status: 'success', timer: 2000 });
    });
    expect(view.getByRole('alert')).toHaveTextContent('Session Expired');
    expect(view.getByRole('img', { name: 'Error' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1999));
    expect(view.getByRole('alert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(view.queryByRole('alert')).not.toBeInTheDocument();
    expect(view.getByRole('status')).toHaveTextContent('Lead ID copied');
    act(() => vi.advanceTimersByTime(2000));
    expect(view.queryByRole('status')).not.toBeInTheDocument();
  });
});
