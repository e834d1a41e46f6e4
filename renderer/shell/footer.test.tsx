import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/instance';
import { logAnalyticsEvent } from './app-analytics';
import { Footer } from './footer';

vi.mock('./app-analytics', () => ({ logAnalyticsEvent: vi.fn() }));

beforeEach(() => {
  vi.mocked(logAnalyticsEvent).mockClear();
  void i18n.changeLanguage('en-GB');
});

function draw(current: string) {
  const onNavigate = vi.fn();
  render(
    <I18nextProvider i18n={i18n}>
      <Footer current={current} onNavigate={onNavigate} />
    </I18nextProvider>,
  );
  return onNavigate;
}

describe('Footer analytics (SPEC §2 "each click navigates and logs an analytics event")', () => {
  it('logs footer_account_click once, from the page it was on, and navigates', async () => {
    const onNavigate = draw('/dashboard');
    await userEvent.click(screen.getByRole('button', { name: 'Account' }));
    expect(vi.mocked(logAnalyticsEvent).mock.calls).toEqual([
      ['footer_account_click', { from: '/dashboard' }],
    ]);
    expect(onNavigate).toHaveBeenCalledWith('/account');
  });

  it('logs footer_my_properties_click once from the account page', async () => {
    const onNavigate = draw('/account');
    await userEvent.click(screen.getByRole('button', { name: 'My Properties' }));
    expect(vi.mocked(logAnalyticsEvent).mock.calls).toEqual([
      ['footer_my_properties_click', { from: '/account' }],
    ]);
    expect(onNavigate).toHaveBeenCalledWith('/dashboard');
  });
});
