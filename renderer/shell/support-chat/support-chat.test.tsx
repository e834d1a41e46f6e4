import { act, fireEvent, render, screen as view, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider as JotaiProvider, createStore } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SupportMessage } from '../../../schemas/generated/types';
import { i18n } from '../../i18n/instance';
import { globalInfoAtom, loggedInAtom } from '../../state/atoms';
import { SupportChatLauncher } from './launcher';
import SupportChat, { mergeMessages, type SupportEventSource } from './support-chat';

const fetchMock = vi.fn<typeof fetch>();

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const msg = (id: number, author: 'owner' | 'staff', body: string): SupportMessage => ({
  message_id: id,
  author,
  body,
  created_at: '2026-11-22T10:00:00.000Z',
});

/** A fake EventSource the test drives. */
class FakeSource implements SupportEventSource {
  static last: FakeSource | null = null;
  listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  closed = false;
  onerror: ((event: Event) => void) | null = null;
  onopen: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeSource.last = this;
  }
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown, id?: string) {
    const event = new MessageEvent(type, { data: JSON.stringify(data), lastEventId: id ?? '' });
    for (const l of this.listeners.get(type) ?? []) l(event);
  }
}
const openFake = (url: string) => new FakeSource(url);

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  FakeSource.last = null;
});
afterEach(() => vi.unstubAllGlobals());

function renderChat() {
  return render(
    <I18nextProvider i18n={i18n}>
      <SupportChat openEventSource={openFake} />
    </I18nextProvider>,
  );
}

describe('mergeMessages', () => {
  it('keeps one message per id, ordered by id', () => {
    const merged = mergeMessages(
      [msg(3, 'owner', 'c'), msg(1, 'owner', 'a')],
      [msg(2, 'staff', 'b'), msg(3, 'owner', 'c')],
    );
    expect(merged.map((m) => m.message_id)).toEqual([1, 2, 3]);
  });
});

describe('SupportChat', () => {
  it('opens an accessible dialog, shows the conversation, and a staff reply arrives live', async () => {
    fetchMock.mockResolvedValueOnce(
      json({
        success: true,
        data: {
          messages: [msg(4, 'owner', 'Hello'), msg(5, 'staff', 'Hi, how can we help?')],
          has_more: false,
        },
      }),
    );
    renderChat();
    await userEvent.click(view.getByRole('button', { name: 'Chat with support' }));
    const dialog = await view.findByRole('dialog', { name: 'Support' });
    const log = within(dialog).getByRole('log', { name: 'Messages with support' });
    await within(log).findByText('Hi, how can we help?');
    expect(String(fetchMock.mock.calls[0]![0])).toContain('/hms_ms/api/v1/onboard/support/messages');
    // The stream starts after the newest message loaded.
    await waitFor(() =>
      expect(FakeSource.last?.url).toBe('/hms_ms/api/v1/onboard/support/messages/stream?after_id=5'),
    );
    act(() => FakeSource.last!.emit('message', msg(6, 'staff', 'A photo must be 1024 px wide'), '6'));
    expect(await within(log).findByText('A photo must be 1024 px wide')).toBeInTheDocument();
    // The same event again (a reconnect overlap) is not shown twice.
    act(() => FakeSource.last!.emit('message', msg(6, 'staff', 'A photo must be 1024 px wide'), '6'));
    expect(within(log).getAllByText('A photo must be 1024 px wide')).toHaveLength(1);
    expect(within(log).getByText('A photo must be 1024 px wide').closest('[data-author]')).toHaveAttribute(
      'data-author',
      'staff',
    );
  });

  it('sends with Enter, trims, carries a client_message_id and clears the field', async () => {
    fetchMock.mockResolvedValueOnce(json({ success: true, data: { messages: [], has_more: false } }));
    renderChat();
    await userEvent.click(view.getByRole('button', { name: 'Chat with support' }));
    await view.findByText('Write to us here. Our support team replies in this chat.');
    fetchMock.mockResolvedValueOnce(
      json({ success: true, data: { message: msg(9, 'owner', 'Need help') } }, 201),
    );
    const field = view.getByRole('textbox', { name: 'Message' });
    expect(view.getByRole('button', { name: 'Send message' })).toBeDisabled();
    await userEvent.type(field, '  Need help  {Enter}');
    await view.findByText('Need help');
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(String(url)).toContain('/support/messages');
    expect(init?.method).toBe('POST');
    const sent = JSON.parse(String(init?.body)) as { body: string; client_message_id: string };
    expect(sent.body).toBe('Need help');
    expect(sent.client_message_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(field).toHaveValue('');
    // The first message of the conversation raised a request (SPEC §8, issue 12 item 23).
    expect(view.getByRole('status')).toHaveTextContent('Request raised successfully!');
  });

  it('shows a refusal of the server as an alert and keeps the draft', async () => {
    fetchMock.mockResolvedValueOnce(json({ success: true, data: { messages: [], has_more: false } }));
    renderChat();
    await userEvent.click(view.getByRole('button', { name: 'Chat with support' }));
    await view.findByRole('dialog');
    fetchMock.mockResolvedValueOnce(
      json(
        {
          success: false,
          error: {
            code: 'ONB_SUPPORT_RATE_LIMITED',
            message: 'You are sending messages too quickly. Please wait 20 seconds.',
          },
        },
        429,
      ),
    );
    const field = view.getByRole('textbox', { name: 'Message' });
    await userEvent.type(field, 'again');
    fireEvent.click(view.getByRole('button', { name: 'Send message' }));
    expect(await view.findByRole('alert')).toHaveTextContent('Please wait 20 seconds');
    expect(field).toHaveValue('again');
  });

  it('loads earlier messages on demand and says when the session ended', async () => {
    fetchMock.mockResolvedValueOnce(
      json({ success: true, data: { messages: [msg(20, 'staff', 'newest')], has_more: true } }),
    );
    renderChat();
    await userEvent.click(view.getByRole('button', { name: 'Chat with support' }));
    await view.findByText('newest');
    fetchMock.mockResolvedValueOnce(
      json({ success: true, data: { messages: [msg(12, 'owner', 'older')], has_more: false } }),
    );
    await userEvent.click(view.getByRole('button', { name: 'Load earlier messages' }));
    await view.findByText('older');
    expect(String(fetchMock.mock.calls[1]![0])).toContain('before_id=20');
    expect(view.queryByRole('button', { name: 'Load earlier messages' })).not.toBeInTheDocument();
    await waitFor(() => expect(FakeSource.last).not.toBeNull());
    act(() => FakeSource.last!.emit('session_ended', {}));
    expect(await view.findByText(/Your session has ended/)).toBeInTheDocument();
    expect(FakeSource.last!.closed).toBe(true);
  });

  it('closes with the close button and stops listening', async () => {
    fetchMock.mockResolvedValueOnce(json({ success: true, data: { messages: [], has_more: false } }));
    renderChat();
    await userEvent.click(view.getByRole('button', { name: 'Chat with support' }));
    await view.findByRole('dialog');
    await waitFor(() => expect(FakeSource.last).not.toBeNull());
    await userEvent.click(view.getByRole('button', { name: 'Close chat' }));
    await waitFor(() => expect(view.queryByRole('dialog')).not.toBeInTheDocument());
    expect(FakeSource.last!.closed).toBe(true);
    expect(view.getByRole('button', { name: 'Chat with support' })).toBeInTheDocument();
  });
});

describe('SupportChatLauncher', () => {
  function renderLauncher(loggedIn: boolean, enabled: boolean) {
    const store = createStore();
    store.set(loggedInAtom, loggedIn);
    store.set(globalInfoAtom, {
      is_downtime_active: false,
      oyo_360_chat_enabled: enabled,
      is_self_onboard_enabled: true,
      enable_oyo360_l1_revamp: false,
      country_code: 'IN',
      partner_site_url: null,
      map_config: { tile_url: null, attribution: '', default_center: { lat: 0, lng: 0 } },
    });
    return render(
      <JotaiProvider store={store}>
        <I18nextProvider i18n={i18n}>
          <SupportChatLauncher />
        </I18nextProvider>
      </JotaiProvider>,
    );
  }

  it('shows the button only to a signed-in user when the chat is enabled', async () => {
    const { unmount } = renderLauncher(true, true);
    expect(await view.findByRole('button', { name: 'Chat with support' })).toBeInTheDocument();
    unmount();
    renderLauncher(true, false);
    renderLauncher(false, true);
    await new Promise((r) => setTimeout(r, 50));
    expect(view.queryByRole('button', { name: 'Chat with support' })).not.toBeInTheDocument();
  });
});
