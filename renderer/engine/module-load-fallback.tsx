import { useEffect, useRef, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
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
    <Card role="alert" variant="outlined" sx={inScreen ? undefined : { m: 2 }} {...rest}>
      <CardContent>
        <Typography>{message}</Typography>
      </CardContent>
      <CardActions>
        <Button ref={buttonRef} variant="contained" onClick={onAction}>
          {action}
        </Button>
      </CardActions>
    </Card>
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
