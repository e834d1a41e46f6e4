import { Box, Chip, Typography } from '@mui/material';
import type { ReferralHeaderContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

/**
 * The `referral_header` widget (SPEC §3 referralDetails): the heading of a property's referral screen,
 * the property's name, then either the verified code (with `verified_label` as a badge) and who referred,
 * or the description inviting the owner to add one.
 */
export function ReferralHeader({ contents }: WidgetProps<ReferralHeaderContents>) {
  const referral = contents.referral ?? null;
  return (
    <Box component="header" sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, paddingBlockEnd: 1 }}>
      <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
        {contents.title}
      </Typography>
      {/* A paragraph, not MUI's default h6 for subtitle1: no heading may skip levels (axe heading-order, issue 12 item 19). */}
      <Typography variant="subtitle1" component="p" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {contents.property_title}
      </Typography>
      {referral ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="body1" component="p" sx={{ fontWeight: 600 }} dir="ltr">
            {referral.code}
          </Typography>
          {contents.verified_label && <Chip size="small" color="success" label={contents.verified_label} />}
          <Typography variant="body2" component="p" sx={{ flexBasis: '100%', overflowWrap: 'anywhere' }}>
            {referral.referrer}
          </Typography>
        </Box>
      ) : (
        contents.description && (
          <Typography variant="body2" component="p" sx={{ overflowWrap: 'anywhere' }}>
            {contents.description}
          </Typography>
        )
      )}
    </Box>
  );
}
