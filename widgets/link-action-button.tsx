import { useState } from 'react';
import { Button, type ButtonProps } from '@mui/material';
import type { LinkAction } from '../schemas/generated/types';
import type { Dispatch } from './widget-props';

/**
 * A button that runs a {@link LinkAction}'s actions through the engine's `dispatch`, busy (spinner,
 * `aria-busy`, no second run) until they settle. Shared by the widgets whose contents carry labelled actions
 * (`empty_state`, `thanks`, `exit_screen`); `variant` and `fullWidth` as MUI's Button.
 */
export function LinkActionButton({
  action,
  dispatch,
  variant = 'contained',
  fullWidth,
}: {
  action: LinkAction;
  dispatch: Dispatch;
  variant?: ButtonProps['variant'];
  fullWidth?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant={variant}
      fullWidth={fullWidth}
      size="large"
      loading={busy}
      aria-busy={busy}
      sx={{ minBlockSize: 48 }}
      onClick={async () => {
        if (busy) return;
        setBusy(true);
        try {
          await dispatch(action.actions);
        } finally {
          setBusy(false);
        }
      }}
    >
      {action.label}
    </Button>
  );
}
