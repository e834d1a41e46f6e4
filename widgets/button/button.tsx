import { useEffect, useRef, useState } from 'react';
import { Button as MuiButton } from '@mui/material';
import type { ButtonContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

/**
 * The `button` widget: an MUI Button (full width unless `full_width: false`) that runs its `actions`
 * through `dispatch`. It is disabled while `disabled_when` holds over `{ form }`, and busy (disabled,
 * spinner, aria-busy) while its actions run, so a double tap cannot submit twice.
 */
export function Button({ contents, form, dispatch }: WidgetProps<ButtonContents>) {
  const [busy, setBusy] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const disabled = contents.disabled_when !== undefined && form.evaluate(contents.disabled_when);

  const run = async () => {
    setBusy(true);
    try {
      await dispatch(contents.actions);
    } finally {
      // A navigate action may have unmounted the screen already.
      if (mounted.current) setBusy(false);
    }
  };

  return (
    <MuiButton
      variant={contents.variant ?? 'contained'}
      fullWidth={contents.full_width ?? true}
      size="large"
      disabled={disabled}
      loading={busy}
      aria-busy={busy}
      onClick={() => void run()}
      sx={{ minHeight: 48, overflowWrap: 'anywhere' }}
    >
      {contents.label}
    </MuiButton>
  );
}
