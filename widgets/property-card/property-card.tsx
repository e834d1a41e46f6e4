import { useId, useState } from 'react';
import { Box, Button, Chip, IconButton, Menu, MenuItem, Paper, Typography } from '@mui/material';
import type { PropertyCardContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';
import { popupContainer } from '../shared-ui';

type LinkAction = NonNullable<PropertyCardContents['primary']>;

/** A vertical ellipsis, drawn inline (decorative: the button carries `menu_label` as its name). */
function MoreIcon() {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="5" r="2" fill="currentColor" />
      <circle cx="12" cy="12" r="2" fill="currentColor" />
      <circle cx="12" cy="19" r="2" fill="currentColor" />
    </svg>
  );
}

/**
 * The `property_card` widget: one property on the dashboard (SPEC §2, §4). The title is a heading (h3),
 * the tag a coloured chip, `tags` (e.g. the program and its type) a list of outlined chips under it, the
 * details lines of text; `primary` and `secondary` are buttons (busy while
 * their actions run); the action menu opens from an icon button named `menu_label` ('More') and runs the
 * chosen item's actions after closing (e.g. 'Copy Lead ID' copies and shows its toast).
 */
export function PropertyCard({ contents, dispatch }: WidgetProps<PropertyCardContents>) {
  const headingId = useId();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState<'primary' | 'secondary' | null>(null);

  const run = async (which: 'primary' | 'secondary', link: LinkAction) => {
    setBusy(which);
    try {
      await dispatch(link.actions);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Paper
      variant="outlined"
      component="article"
      aria-labelledby={headingId}
      sx={{ padding: 2, display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          {contents.tag && (
            <Chip
              size="small"
              label={contents.tag.label}
              color={contents.tag.tone && contents.tag.tone !== 'default' ? contents.tag.tone : 'default'}
              sx={{ alignSelf: 'flex-start' }}
            />
          )}
          {contents.tags && contents.tags.length > 0 && (
            <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, margin: 0, padding: 0 }}>
              {contents.tags.map((tag, i) => (
                <Box component="li" key={i} sx={{ listStyle: 'none' }}>
                  <Chip
                    size="small"
                    variant="outlined"
                    label={tag.label}
                    color={tag.tone && tag.tone !== 'default' ? tag.tone : 'default'}
                  />
                </Box>
              ))}
            </Box>
          )}
          <Typography id={headingId} variant="subtitle1" component="h3" sx={{ overflowWrap: 'anywhere' }}>
            {contents.title}
          </Typography>
        </Box>
        {contents.menu && contents.menu.length > 0 && (
          <>
            <IconButton
              aria-label={contents.menu_label}
              aria-haspopup="menu"
              aria-controls={anchor ? menuId : undefined}
              aria-expanded={anchor ? 'true' : undefined}
              onClick={(e) => setAnchor(e.currentTarget)}
              edge="end"
            >
              <MoreIcon />
            </IconButton>
            <Menu
              id={menuId}
              anchorEl={anchor}
              open={anchor !== null}
              onClose={() => setAnchor(null)}
              container={popupContainer}
            >
              {contents.menu.map((item, i) => (
                <MenuItem
                  key={i}
                  onClick={() => {
                    setAnchor(null);
                    void dispatch(item.actions);
                  }}
                >
                  {item.label}
                </MenuItem>
              ))}
            </Menu>
          </>
        )}
      </Box>
      {contents.details?.map((line, i) => (
        <Typography key={i} variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {line}
        </Typography>
      ))}
      {(contents.primary || contents.secondary) && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', marginBlockStart: 1 }}>
          {contents.primary && (
            <Button
              variant="contained"
              loading={busy === 'primary'}
              disabled={busy !== null && busy !== 'primary'}
              onClick={() => void run('primary', contents.primary!)}
            >
              {contents.primary.label}
            </Button>
          )}
          {contents.secondary && (
            <Button
              variant="outlined"
              loading={busy === 'secondary'}
              disabled={busy !== null && busy !== 'secondary'}
              onClick={() => void run('secondary', contents.secondary!)}
            >
              {contents.secondary.label}
            </Button>
          )}
        </Box>
      )}
    </Paper>
  );
}
