import { useId, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { ConfirmationContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

/**
 * The `confirmation` widget: an MUI Dialog, open while `popup.openId === popup_id` (an open_popup action
 * opens it). Cancel (also Escape and a tap outside) runs `cancel_actions` then closes; confirm runs
 * `confirm_actions` and closes when they succeed (stays open, buttons enabled again, when one fails —
 * the engine has shown the error). `tone: danger` colours the confirm button as an error. The message is
 * the `message_field` form field when it holds a non-blank string (a server answer put there), else
 * `message`.
 */
export function Confirmation({ contents, dispatch, popup, form }: WidgetProps<ConfirmationContents>) {
  const titleId = useId();
  const answered = contents.message_field === undefined ? undefined : form.value(contents.message_field);
  const message = typeof answered === 'string' && answered.trim() !== '' ? answered : contents.message;
  const messageId = useId();
  const [busy, setBusy] = useState(false);
  const open = popup.openId === contents.popup_id;

  const cancel = async () => {
    if (busy) return;
    if (contents.cancel_actions?.length) await dispatch(contents.cancel_actions);
    popup.close();
  };

  const confirm = async () => {
    setBusy(true);
    const ok = await dispatch(contents.confirm_actions);
    setBusy(false);
    if (ok) popup.close();
  };

  return (
    <Dialog
      open={open}
      onClose={() => void cancel()}
      aria-labelledby={titleId}
      aria-describedby={message ? messageId : undefined}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {contents.title}
      </DialogTitle>
      {message && (
        <DialogContent>
          <DialogContentText id={messageId} sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
            {message}
          </DialogContentText>
        </DialogContent>
      )}
      <DialogActions sx={{ paddingInline: 3, paddingBlockEnd: 2, gap: 1, flexWrap: 'wrap' }}>
        <Button variant="text" onClick={() => void cancel()} disabled={busy}>
          {contents.cancel_label}
        </Button>
        <Button
          variant="contained"
          color={contents.tone === 'danger' ? 'error' : 'primary'}
          onClick={() => void confirm()}
          loading={busy}
          aria-busy={busy}
        >
          {contents.confirm_label}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
