import { useId } from 'react';
import { Box, LinearProgress, Typography } from '@mui/material';
import type { ExitScreenContents } from '../../schemas/generated/types';
import { LinkActionButton } from '../link-action-button';
import { TitledList } from '../titled-list';
import type { WidgetProps } from '../widget-props';

/**
 * The `exit_screen` widget (SPEC §3 'exit screen'): what an owner sees on leaving a listing before it is
 * finished. The title is the page's h1; the message says their work is kept; `completion_percentage` (0–100,
 * SPEC §3 completionPercentage) is a progress bar named by `completion_label` (its value read out by screen
 * readers); the open tasks are a list under their own heading. Staying is the primary action, first in the
 * reading order; leaving is the quieter (outlined) one below it.
 */
export function ExitScreen({ contents, dispatch }: WidgetProps<ExitScreenContents>) {
  const id = useId();
  const percentage = contents.completion_percentage;
  return (
    <Box
      component="section"
      aria-labelledby={`${id}-title`}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2, paddingBlock: 3 }}
    >
      <Typography
        id={`${id}-title`}
        variant="h5"
        component="h1"
        sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
      >
        {contents.title}
      </Typography>
      {contents.message && (
        <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {contents.message}
        </Typography>
      )}
      {percentage !== undefined && (
        <Box>
          {contents.completion_label && (
            <Typography id={`${id}-progress`} variant="body2" sx={{ fontWeight: 600, marginBlockEnd: 0.75 }}>
              {contents.completion_label}
            </Typography>
          )}
          <LinearProgress
            variant="determinate"
            value={percentage}
            aria-labelledby={contents.completion_label ? `${id}-progress` : undefined}
            aria-label={contents.completion_label ? undefined : contents.title}
            sx={{ blockSize: 8, borderRadius: 4 }}
          />
        </Box>
      )}
      <TitledList title={contents.remaining_title} items={contents.remaining} />
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, marginBlockStart: 1 }}>
        <LinkActionButton action={contents.stay_action} dispatch={dispatch} fullWidth />
        <LinkActionButton action={contents.leave_action} dispatch={dispatch} variant="outlined" fullWidth />
      </Box>
    </Box>
  );
}
