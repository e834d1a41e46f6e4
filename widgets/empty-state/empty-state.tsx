import { Box, Typography } from '@mui/material';
import type { EmptyStateContents } from '../../schemas/generated/types';
import { LinkActionButton } from '../link-action-button';
import type { WidgetProps } from '../widget-props';
import { illustrations } from './illustrations';

/**
 * The `empty_state` widget: what a list shows when it has nothing (SPEC §8 'You have no Hotels
 * associated'). A decorative illustration (aria-hidden), the title as a heading, an optional
 * description and an optional action button that runs its actions.
 */
export function EmptyState({ contents, dispatch }: WidgetProps<EmptyStateContents>) {
  const Illustration = illustrations[contents.illustration ?? 'hotels'];
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 1.5,
        paddingBlock: 4,
        paddingInline: 2,
      }}
    >
      <Illustration />
      <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
        {contents.title}
      </Typography>
      {contents.description && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', maxWidth: 360 }}>
          {contents.description}
        </Typography>
      )}
      {contents.action && (
        <LinkActionButton action={contents.action} dispatch={dispatch} variant="outlined" />
      )}
    </Box>
  );
}
