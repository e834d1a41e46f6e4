import { useId } from 'react';
import { Box, Typography } from '@mui/material';

/**
 * A list under an optional h2 that names it (`aria-labelledby`): `ordered` for steps (an `ol`), else a `ul`.
 * Draws nothing for an absent or empty list. Shared by `thanks` (next steps) and `exit_screen` (open tasks).
 */
export function TitledList({
  title,
  items,
  ordered = false,
}: {
  title?: string | undefined;
  items?: readonly string[] | undefined;
  ordered?: boolean;
}) {
  const titleId = useId();
  if (!items || items.length === 0) return null;
  return (
    <Box sx={{ inlineSize: '100%' }}>
      {title && (
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
      )}
      <Box
        component={ordered ? 'ol' : 'ul'}
        aria-labelledby={title ? titleId : undefined}
        sx={{ marginBlock: 1, paddingInlineStart: 3 }}
      >
        {items.map((item) => (
          <Typography
            key={item}
            component="li"
            variant="body2"
            sx={{ marginBlock: 0.5, overflowWrap: 'anywhere' }}
          >
            {item}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
