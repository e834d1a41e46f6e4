import { useEffect, useState } from 'react';
import { Button as MuiButton, Stack, Typography } from '@mui/material';
import type { ReminderButtonContents } from '../../schemas/generated/types';
import type { RequestFailure, WidgetProps } from '../widget-props';
import {
  currentSubscription,
  remindersSupported,
  turnOffReminders,
  turnOnReminders,
  type ReminderState,
} from './subscribe';

/**
 * Where the button is: `idle` (not tapped yet), `asking` (the browser's prompt is up), an outcome, `stopping`
 * (turning off) or `off` (turned off here).
 */
type State = 'idle' | 'asking' | ReminderState | 'failed' | 'stopping' | 'off';

/** The state to start in: what the browser already says, without asking anything (SPEC §9: never on load). */
function initialState(): State {
  if (!remindersSupported()) return 'not_supported';
  return Notification.permission === 'denied' ? 'refused' : 'idle';
}

/**
 * The `reminder_button` widget, 'Remind me to finish' on the checklist (issue 15 item 5): on the owner's tap
 * only, asks the browser for permission to show notifications, subscribes it to push and saves the
 * subscription (see {@link turnOnReminders}). The line under the button says where it is (a polite live
 * region): asking, on, refused by the browser, not supported, not available, or the API's error message. The
 * button is busy while asking and disabled once reminders are on or cannot be (refused, not supported).
 * Reminders already on from an earlier visit show as on when drawn (read only, nothing asked). With
 * `off_label`, once on, a second button turns them off (see {@link turnOffReminders}); the first can then
 * turn them on again.
 */
export function ReminderButton({ contents, load, send }: WidgetProps<ReminderButtonContents>) {
  const [state, setState] = useState<State>(initialState);
  const [failure, setFailure] = useState('');

  useEffect(() => {
    let live = true;
    currentSubscription().then(
      (subscription) => {
        if (live && subscription) setState((now) => (now === 'idle' ? 'on' : now));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  const stop = async () => {
    setState('stopping');
    try {
      await turnOffReminders({ send, subscriptionEndpoint: contents.subscription_endpoint });
      setState('off');
    } catch (error) {
      setFailure((error as RequestFailure).message ?? '');
      setState('failed');
    }
  };

  const run = async () => {
    setState('asking');
    try {
      const outcome = await turnOnReminders(
        {
          load,
          send,
          configEndpoint: contents.config_endpoint,
          subscriptionEndpoint: contents.subscription_endpoint,
        },
        () => setState('asking'),
      );
      setState(outcome);
    } catch (error) {
      setFailure((error as RequestFailure).message ?? '');
      setState('failed');
    }
  };

  const text: Record<State, string> = {
    idle: '',
    asking: contents.asking_text,
    on: contents.on_text,
    refused: contents.refused_text,
    not_supported: contents.not_supported_text,
    unavailable: contents.unavailable_text,
    failed: failure,
    stopping: contents.on_text,
    off: contents.off_text ?? '',
  };
  const final = state === 'on' || state === 'stopping' || state === 'refused' || state === 'not_supported';

  return (
    <Stack spacing={1}>
      <MuiButton
        variant={contents.variant ?? 'outlined'}
        fullWidth
        size="large"
        disabled={final}
        loading={state === 'asking'}
        aria-busy={state === 'asking'}
        onClick={() => void run()}
        sx={{ minHeight: 48, overflowWrap: 'anywhere' }}
      >
        {contents.label}
      </MuiButton>
      <Typography
        variant="body2"
        role="status"
        aria-live="polite"
        data-state={state}
        color={
          state === 'on' || state === 'stopping'
            ? 'success.main'
            : state === 'asking' || state === 'idle' || state === 'off'
              ? 'text.secondary'
              : 'warning.main'
        }
      >
        {text[state]}
      </Typography>
      {contents.off_label && (state === 'on' || state === 'stopping') && (
        <MuiButton
          variant="text"
          fullWidth
          loading={state === 'stopping'}
          aria-busy={state === 'stopping'}
          onClick={() => void stop()}
          sx={{ minHeight: 48, overflowWrap: 'anywhere' }}
        >
          {contents.off_label}
        </MuiButton>
      )}
    </Stack>
  );
}
