import { useCallback, useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Fab from '@mui/material/Fab';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import SupportAgent from '@mui/icons-material/SupportAgent';
import Close from '@mui/icons-material/Close';
import Send from '@mui/icons-material/Send';
import type {
  SupportMessage,
  SupportMessageList,
  SupportMessageResult,
} from '../../../schemas/generated/types';
import { apiRequest, extractErrorMessage } from '../../api/client';

/** The owner routes of the support chat. */
export const SUPPORT_MESSAGES_ENDPOINT = '/hms_ms/api/v1/onboard/support/messages';
/** The server-sent events of the owner's conversation. */
export const SUPPORT_STREAM_ENDPOINT = `${SUPPORT_MESSAGES_ENDPOINT}/stream`;
/** Longest message in characters (api/send-support-message.schema.json). */
export const SUPPORT_MESSAGE_MAX_CHARS = 2000;

/** Translation keys of the chat: shell.support-center.* (SPEC §9 support chat key 'support-center'). */
const K = 'shell.support-center';

/** The smallest EventSource the panel needs (tests pass a fake). */
export interface SupportEventSource {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
  onerror: ((event: Event) => void) | null;
  onopen: ((event: Event) => void) | null;
}

/** Opens the stream of `url` (default: the browser's EventSource, with the session cookie). */
export type OpenEventSource = (url: string) => SupportEventSource;

const browserEventSource: OpenEventSource = (url) => new EventSource(url, { withCredentials: true });

/** Adds messages, keeping one per message_id, sorted by id. */
export function mergeMessages(current: SupportMessage[], incoming: SupportMessage[]): SupportMessage[] {
  const byId = new Map(current.map((m) => [m.message_id, m]));
  for (const m of incoming) byId.set(m.message_id, m);
  return [...byId.values()].sort((a, b) => a.message_id - b.message_id);
}

function timeOf(iso: string, locale: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
}

/**
 * The support chat panel (issue 6 item 7): an accessible dialog with the owner's conversation. On open it
 * loads the newest page (older pages on demand), then listens to the server-sent events from the newest
 * message it has, so staff replies appear without reload; the browser reconnects by itself with
 * Last-Event-ID. Enter sends (Shift+Enter: new line); each send carries a client_message_id so a retry is
 * not stored twice. Errors are shown in the panel (role alert).
 */
export function SupportChatPanel({
  open,
  onClose,
  openEventSource = browserEventSource,
}: {
  open: boolean;
  onClose: () => void;
  openEventSource?: OpenEventSource;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const [messages, setMessages] = useState<SupportMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [draft, setDraft] = useState('');
  // The owner's first message of a conversation raises a request to support (SPEC §8 'Request raised successfully!').
  const [raised, setRaised] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [connection, setConnection] = useState<'connecting' | 'live' | 'reconnecting' | 'ended'>(
    'connecting',
  );
  const listRef = useRef<HTMLDivElement | null>(null);
  const newestId = useRef(0);
  newestId.current = messages.length ? messages[messages.length - 1]!.message_id : newestId.current;

  // The newest page, each time the panel opens.
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    apiRequest<SupportMessageList>(SUPPORT_MESSAGES_ENDPOINT, { signal: controller.signal })
      .then((page) => {
        setMessages((current) => mergeMessages(current, page.messages));
        setHasMore(page.has_more);
        setLoaded(true);
      })
      .catch((err: unknown) => {
        if ((err as { name?: string }).name !== 'AbortError') setError(extractErrorMessage(err));
      })
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [open]);

  // Live messages once the page is in.
  useEffect(() => {
    if (!open || !loaded) return;
    const source = openEventSource(`${SUPPORT_STREAM_ENDPOINT}?after_id=${newestId.current}`);
    setConnection('connecting');
    source.onopen = () => setConnection('live');
    source.onerror = () => setConnection((c) => (c === 'ended' ? c : 'reconnecting'));
    source.addEventListener('message', (event) => {
      try {
        const message = JSON.parse(event.data) as SupportMessage;
        setMessages((current) => mergeMessages(current, [message]));
        setConnection('live');
      } catch {
        // Not a message; ignored.
      }
    });
    source.addEventListener('session_ended', () => {
      setConnection('ended');
      source.close();
    });
    return () => source.close();
  }, [open, loaded, openEventSource]);

  // Keep the newest message in view.
  useEffect(() => {
    const list = listRef.current;
    if (list && typeof list.scrollTo === 'function') list.scrollTo({ top: list.scrollHeight });
  }, [messages.length]);

  const loadEarlier = useCallback(() => {
    const first = messages[0];
    if (!first) return;
    setLoading(true);
    apiRequest<SupportMessageList>(SUPPORT_MESSAGES_ENDPOINT, { query: { before_id: first.message_id } })
      .then((page) => {
        setMessages((current) => mergeMessages(current, page.messages));
        setHasMore(page.has_more);
      })
      .catch((err: unknown) => setError(extractErrorMessage(err)))
      .finally(() => setLoading(false));
  }, [messages]);

  const send = useCallback(() => {
    const body = draft.trim();
    if (!body || sending) return;
    setSending(true);
    setError(null);
    apiRequest<SupportMessageResult>(SUPPORT_MESSAGES_ENDPOINT, {
      method: 'POST',
      body: { body, client_message_id: crypto.randomUUID() },
    })
      .then(({ message }) => {
        setRaised(!messages.some((m) => m.author === 'owner'));
        setMessages((current) => mergeMessages(current, [message]));
        setDraft('');
      })
      .catch((err: unknown) => setError(extractErrorMessage(err)))
      .finally(() => setSending(false));
  }, [draft, sending, messages]);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
      data-testid="support-chat-panel"
    >
      <DialogTitle id={titleId} sx={{ display: 'flex', alignItems: 'center', gap: 1, pe: 1 }}>
        <Box component="span" sx={{ flex: 1 }}>
          {t(`${K}.title`)}
        </Box>
        <IconButton onClick={onClose} aria-label={t(`${K}.close`)} edge="end">
          <Close />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 1, p: 0, minHeight: 320 }}>
        <Box
          ref={listRef}
          role="log"
          aria-live="polite"
          aria-label={t(`${K}.conversation`)}
          aria-busy={loading}
          sx={{ flex: 1, overflowY: 'auto', p: 2, display: 'flex', flexDirection: 'column', gap: 1 }}
        >
          {hasMore && (
            <Button onClick={loadEarlier} disabled={loading} size="small" sx={{ alignSelf: 'center' }}>
              {t(`${K}.load_earlier`)}
            </Button>
          )}
          {loading && !loaded && (
            <CircularProgress size={24} sx={{ alignSelf: 'center' }} aria-label={t(`${K}.loading`)} />
          )}
          {loaded && messages.length === 0 && (
            <Typography color="text.secondary" sx={{ textAlign: 'center', my: 4 }}>
              {t(`${K}.empty`)}
            </Typography>
          )}
          {raised && (
            <Typography role="status" color="success.main" variant="body2" sx={{ textAlign: 'center' }}>
              {t(`${K}.request_raised`)}
            </Typography>
          )}
          {messages.map((m) => {
            const mine = m.author === 'owner';
            return (
              <Box
                key={m.message_id}
                data-author={m.author}
                sx={{
                  alignSelf: mine ? 'flex-end' : 'flex-start',
                  maxWidth: '80%',
                  px: 1.5,
                  py: 1,
                  borderRadius: 2,
                  bgcolor: mine ? 'primary.main' : 'grey.100',
                  color: mine ? 'primary.contrastText' : 'text.primary',
                }}
              >
                <Typography variant="caption" component="p" sx={{ opacity: 0.8 }}>
                  {mine ? t(`${K}.you`) : t(`${K}.support`)}
                  {' · '}
                  <time dateTime={m.created_at}>{timeOf(m.created_at, i18n.language)}</time>
                </Typography>
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {m.body}
                </Typography>
              </Box>
            );
          })}
        </Box>
        {connection === 'reconnecting' && (
          <Typography role="status" variant="caption" color="text.secondary" sx={{ px: 2 }}>
            {t(`${K}.reconnecting`)}
          </Typography>
        )}
        {connection === 'ended' && (
          <Typography role="status" variant="caption" color="text.secondary" sx={{ px: 2 }}>
            {t(`${K}.session_ended`)}
          </Typography>
        )}
        {error && (
          <Typography role="alert" variant="body2" color="error" sx={{ px: 2 }}>
            {error}
          </Typography>
        )}
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            send();
          }}
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-end', p: 2, pt: 0 }}
        >
          <TextField
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                send();
              }
            }}
            label={t(`${K}.message_label`)}
            placeholder={t(`${K}.placeholder`)}
            multiline
            maxRows={4}
            fullWidth
            size="small"
            slotProps={{ htmlInput: { maxLength: SUPPORT_MESSAGE_MAX_CHARS } }}
          />
          <IconButton
            type="submit"
            color="primary"
            aria-label={t(`${K}.send`)}
            disabled={sending || !draft.trim()}
          >
            {sending ? (
              <CircularProgress size={20} />
            ) : (
              <Send sx={{ transform: theme.direction === 'rtl' ? 'scaleX(-1)' : undefined }} />
            )}
          </IconButton>
        </Box>
      </DialogContent>
    </Dialog>
  );
}

/** Distance of the floating button from the bottom of the viewport (px): above the 56 px footer. */
const CHAT_BUTTON_BOTTOM_PX = 88;
/** Room kept at the end of the page for the floating button (px): its offset, its 48 px and 8 px more. */
const CHAT_BUTTON_ROOM_PX = CHAT_BUTTON_BOTTOM_PX + 48 + 8;

/**
 * The floating support button and its panel, for every screen of a signed-in owner when
 * global_info.oyo_360_chat_enabled (the shell decides; this module is loaded lazily so the sign-in bundle
 * does not carry it). The button sits above the footer at the inline end; the page ends with room for it.
 */
export default function SupportChat({
  openEventSource,
}: {
  openEventSource?: OpenEventSource;
}): ReactElement {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* Room at the end of every page for the floating button (bottom 88 px + 48 px + 8 px), so the last of
          a page (Saved / Not saved, the checklist's Add/Edit, 'Accept contract') can be scrolled out from
          under it, in either direction (issue 12 item 7). */}
      <Box aria-hidden="true" data-testid="support-chat-room" sx={{ blockSize: CHAT_BUTTON_ROOM_PX }} />
      {!open && (
        <Box sx={{ position: 'fixed', insetInlineEnd: 16, bottom: CHAT_BUTTON_BOTTOM_PX, zIndex: 1200 }}>
          <Fab
            color="primary"
            size="medium"
            aria-label={t(`${K}.open`)}
            aria-haspopup="dialog"
            onClick={() => setOpen(true)}
            data-testid="support-chat-button"
          >
            <SupportAgent />
          </Fab>
        </Box>
      )}
      <SupportChatPanel
        open={open}
        onClose={() => setOpen(false)}
        {...(openEventSource ? { openEventSource } : {})}
      />
    </>
  );
}
