import { useId } from 'react';
import { Box, Typography } from '@mui/material';
import type { ThanksContents } from '../../schemas/generated/types';
import { LinkActionButton } from '../link-action-button';
import { PhoneAwareText } from '../phone-text';
import { TitledList } from '../titled-list';
import type { WidgetProps } from '../widget-props';

/** The success mark: a tick in a circle, decorative (the title says what happened). */
function SuccessMark() {
  return (
    <Box
      component="svg"
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
      sx={{ inlineSize: 72, blockSize: 72, color: 'success.main' }}
    >
      <circle cx="32" cy="32" r="30" fill="currentColor" opacity="0.12" />
      <circle cx="32" cy="32" r="22" fill="currentColor" />
      <path
        d="M22 33l7 7 14-15"
        fill="none"
        stroke="#fff"
        strokeWidth="4.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </Box>
  );
}

/**
 * The `thanks` widget (SPEC §3): a thank-you at the end of a step the owner finished, e.g. 360 completion.
 * A decorative success mark, the title as the page's h1, the message, the details as a description list
 * (values with phone numbers isolated left to right), the next steps as a numbered list under their own
 * heading, then the primary action (contained) and the optional secondary one (text), full width on a phone.
 */
export function Thanks({ contents, dispatch }: WidgetProps<ThanksContents>) {
  const titleId = useId();
  return (
    <Box
      component="section"
      aria-labelledby={`${titleId}-title`}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, paddingBlock: 3 }}
    >
      <SuccessMark />
      <Typography
        id={`${titleId}-title`}
        variant="h5"
        component="h1"
        sx={{ fontWeight: 600, textAlign: 'center', overflowWrap: 'anywhere' }}
      >
        {contents.title}
      </Typography>
      {contents.message && (
        <Typography
          color="text.secondary"
          sx={{ textAlign: 'center', overflowWrap: 'anywhere', maxInlineSize: 480 }}
        >
          <PhoneAwareText text={contents.message} />
        </Typography>
      )}
      {contents.details && contents.details.length > 0 && (
        <Box
          component="dl"
          sx={{
            inlineSize: '100%',
            margin: 0,
            padding: 2,
            borderRadius: 2,
            bgcolor: 'action.hover',
            display: 'grid',
            gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1.4fr)',
            rowGap: 1,
            columnGap: 2,
          }}
        >
          {contents.details.map((detail) => (
            <Box key={detail.label} sx={{ display: 'contents' }}>
              <Typography
                component="dt"
                variant="body2"
                color="text.secondary"
                sx={{ overflowWrap: 'anywhere' }}
              >
                {detail.label}
              </Typography>
              <Typography
                component="dd"
                variant="body2"
                sx={{ margin: 0, fontWeight: 600, overflowWrap: 'anywhere' }}
              >
                <PhoneAwareText text={detail.value} />
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      <TitledList title={contents.next_steps_title} items={contents.next_steps} ordered />
      {(contents.primary_action || contents.secondary_action) && (
        <Box
          sx={{ inlineSize: '100%', display: 'flex', flexDirection: 'column', gap: 1, marginBlockStart: 1 }}
        >
          {contents.primary_action && (
            <LinkActionButton action={contents.primary_action} dispatch={dispatch} fullWidth />
          )}
          {contents.secondary_action && (
            <LinkActionButton
              action={contents.secondary_action}
              dispatch={dispatch}
              variant="text"
              fullWidth
            />
          )}
        </Box>
      )}
    </Box>
  );
}
