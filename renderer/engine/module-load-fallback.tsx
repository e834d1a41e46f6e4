import { useEffect, useRef, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/**
 * A module (a screen's widget, a widget's validator, the chat, a shell page) whose chunk failed to load on
 * the first try and on each of the 5 retries (SPEC §4, §8, §9; widgets/retry-import.ts). Carries the last
 * error as `cause`.
 */
export class ModuleLoadError extends Error {
  constructor(cause: unknown) {
    super('module failed to load', { cause });
    this.name = 'ModuleLoadError';
  }
}

/** Props of {@link AlertCard}. */
export interface AlertCardProps {
  message: string;
  /** The button's label. */
  action: string;
  onAction: () => void;
  /**
   * The card stands among a screen's widgets (no margin of its own), and its button is brought into view and
   * focused when it appears.
   */
  inScreen?: boolean;
  'data-testid'?: string;
}

/**
 * The engine's error cards (SPEC §2, §8): a message and one button, in an outlined card with role="alert".
 * Drawn as MUI's outlined Card draws one (a Paper that clips, its content padded 16 px, its actions a row
 * padded 8 px), with the Paper and Box the first page has: Card, CardContent and CardActions were ≈0.35 KB
 * gzip of every page for a card shown only when a module fails to load (issue 13 item 2).
 */
export function AlertCard({
  message,
  action,
  onAction,
  inScreen = false,
  ...rest
}: AlertCardProps): ReactElement {
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!inScreen) return;
    buttonRef.current?.focus();
    buttonRef.current?.scrollIntoView?.({ block: 'center' });
  }, [inScreen]);
  return (
    <Paper
      role="alert"
      variant="outlined"
      sx={inScreen ? { overflow: 'hidden' } : { overflow: 'hidden', m: 2 }}
      {...rest}
    >
      <Box sx={{ p: 2 }}>
        <Typography>{message}</Typography>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', p: 1 }}>
        <Button ref={buttonRef} variant="contained" onClick={onAction}>
          {action}
        </Button>
      </Box>
    </Paper>
  );
}

/**
 * Shown when a module failed to load after every retry (SPEC §4: 'an error fallback with a refresh action
 * that reloads the page'): 'This page could not be loaded…' and Refresh, which reloads the page.
 */
export function ModuleLoadFallback(): ReactElement {
  const { t } = useTranslation();
  return (
    <AlertCard
      message={t('shell.errors.page_load_failed')}
      action={t('shell.actions.refresh')}
      onAction={() => window.location.reload()}
    />
  );
}
