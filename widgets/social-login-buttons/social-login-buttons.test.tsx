import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SocialLoginButtonsContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import type { Load, Send } from '../widget-props';
import {
  browserNavigation,
  SocialLoginButtons,
  TRUECALLER_DEEP_LINK_WINDOW_MS,
  TRUECALLER_POLL_INTERVAL_MS,
} from './social-login-buttons';

const contents = (name = 'sign-in') =>
  fixtureContents<SocialLoginButtonsContents>('social_login_buttons', name);
const configured =
  (providers: string[], linked: string[] = []): Load =>
  async () => ({ providers, linked });
const pending = Object.assign(new Error('No callback received'), {
  status: 409,
  code: 'ONB_TRUECALLER_PENDING',
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('social_login_buttons fixtures', () => {
  it.each(goodFixtures('social_login_buttons').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('social_login_buttons', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('social_login_buttons').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('social_login_buttons', env.contents).valid).toBe(false);
    },
  );
});

describe('SocialLoginButtons', () => {
  it('draws a button only for the providers the server has configured', async () => {
    render(
      harness({ component: SocialLoginButtons, contents: contents(), load: configured(['google', 'apple']) }),
    );
    expect(await screen.findByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with Apple' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).not.toBeInTheDocument();
    expect(screen.getByText('or continue with')).toBeInTheDocument();
  });

  it('draws the buttons of the providers composed into the screen in its first render, without asking', () => {
    const load = vi.fn(configured(['google', 'facebook', 'apple', 'truecaller']));
    render(
      harness({
        component: SocialLoginButtons,
        contents: { ...contents(), configured: ['google', 'apple'] },
        load,
      }),
    );
    // Synchronously: no answer is waited for.
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with Apple' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).not.toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
  });

  it("asks for Account (intent link) even with providers composed: which are linked is the owner's", async () => {
    const load = vi.fn(configured(['google', 'apple'], ['google']));
    render(
      harness({
        component: SocialLoginButtons,
        contents: { ...contents('link'), configured: ['google', 'apple'] },
        load,
      }),
    );
    expect(await screen.findByRole('button', { name: /Apple/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Google/ })).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('draws nothing, not even the divider, when no provider is configured', async () => {
    const load = vi.fn(configured([]));
    render(harness({ component: SocialLoginButtons, contents: contents(), load }));
    await waitFor(() => expect(load).toHaveBeenCalled());
    await act(async () => {});
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByText('or continue with')).not.toBeInTheDocument();
  });

  it('starts the provider flow and leaves for its authorization page', async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    const send = vi.fn<Send>(async () => ({ authorization_url: 'https://accounts.example/auth?state=s' }));
    render(
      harness({ component: SocialLoginButtons, contents: contents(), load: configured(['google']), send }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(send).toHaveBeenCalledWith('/hms_ms/api/v1/users/social_login/authorize', {
      oauth_mode: 'google',
      intent: 'sign_in',
    });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example/auth?state=s'));
  });

  it('shows the refusal when the flow cannot start', async () => {
    const send: Send = async () => {
      throw Object.assign(new Error('This way of signing in is not available.'), { status: 404 });
    };
    render(
      harness({ component: SocialLoginButtons, contents: contents(), load: configured(['apple']), send }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Apple' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This way of signing in is not available.');
  });

  it('links from Account: providers already linked are not offered', async () => {
    render(
      harness({
        component: SocialLoginButtons,
        contents: contents('link'),
        load: configured(['google', 'apple'], ['google']),
      }),
    );
    expect(await screen.findByRole('button', { name: 'Link Apple' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Link Google' })).not.toBeInTheDocument();
  });
});

describe('SocialLoginButtons with Truecaller (SPEC §4, §9)', () => {
  const startTruecaller = async (send: Send) => {
    vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    const record = createHarnessRecord();
    render(
      harness({
        component: SocialLoginButtons,
        contents: contents(),
        load: configured(['truecaller']),
        send,
        record,
      }),
    );
    const button = await screen.findByRole('button', { name: 'Continue with Truecaller' });
    vi.useFakeTimers({ shouldAdvanceTime: false });
    act(() => button.click());
    return record;
  };
  const truecallerSend = (poll: () => Promise<unknown>) =>
    vi.fn<Send>(async (endpoint) =>
      endpoint.endsWith('/truecaller/request')
        ? {
            request_nonce: 'nonce-0123456789abcdef',
            deep_link: 'truecallersdk://truesdk/web_verify?requestNonce=n',
          }
        : poll(),
    );

  it('falls back to the phone code when the page keeps the focus for the deep-link window (no app)', async () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const send = truecallerSend(async () => ({}));
    await startTruecaller(send);
    await act(() => vi.advanceTimersByTimeAsync(TRUECALLER_DEEP_LINK_WINDOW_MS));
    expect(screen.getByRole('status')).toHaveTextContent('Please sign in with a one-time code');
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("keeps polling on 'No callback received', then starts the session", async () => {
    let focused = false;
    vi.spyOn(document, 'hasFocus').mockImplementation(() => focused);
    const poll = vi
      .fn()
      .mockRejectedValueOnce(pending)
      .mockResolvedValueOnce({ outcome: 'signed_in', user: { id: 'u1' } });
    const send = truecallerSend(poll);
    const record = await startTruecaller(send);
    await act(() => vi.advanceTimersByTimeAsync(TRUECALLER_DEEP_LINK_WINDOW_MS));
    expect(screen.getByRole('status')).toHaveTextContent('Confirm in Truecaller');
    expect(poll).not.toHaveBeenCalled();
    focused = true; // Truecaller's sheet closed.
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(poll).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(TRUECALLER_POLL_INTERVAL_MS));
    expect(poll).toHaveBeenCalledTimes(2);
    expect(send).toHaveBeenLastCalledWith('/hms_ms/api/v1/users/social_media_login', {
      oauth_mode: 'truecaller',
      request_nonce: 'nonce-0123456789abcdef',
    });
    expect(record.actions).toEqual([[{ type: 'session_started' }]]);
    expect(record.scopes[0]).toEqual({
      response: { success: true, data: { outcome: 'signed_in', user: { id: 'u1' } } },
    });
  });

  it('stops after 3 polls and falls back', async () => {
    let focused = false;
    vi.spyOn(document, 'hasFocus').mockImplementation(() => focused);
    const poll = vi.fn().mockRejectedValue(pending);
    await startTruecaller(truecallerSend(poll));
    await act(() => vi.advanceTimersByTimeAsync(TRUECALLER_DEEP_LINK_WINDOW_MS));
    focused = true;
    await act(() => vi.advanceTimersByTimeAsync(500 + 4 * TRUECALLER_POLL_INTERVAL_MS));
    expect(poll).toHaveBeenCalledTimes(3);
    expect(screen.getByRole('status')).toHaveTextContent('Please sign in with a one-time code');
  });

  it("falls back to the phone code for 'use another number'", async () => {
    let focused = false;
    vi.spyOn(document, 'hasFocus').mockImplementation(() => focused);
    const record = await startTruecaller(truecallerSend(async () => ({ outcome: 'used_another_number' })));
    await act(() => vi.advanceTimersByTimeAsync(TRUECALLER_DEEP_LINK_WINDOW_MS));
    focused = true;
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(screen.getByRole('status')).toHaveTextContent('Please sign in with a one-time code');
    expect(record.actions).toEqual([]);
  });
});
