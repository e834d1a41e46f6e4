import { Menu, MenuItem } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import type { LanguageChooserContents, Locale } from '../../schemas/generated/types';
import { popupContainer } from '../shared-ui';

/** Props of {@link LanguageMenu}. */
export interface LanguageMenuProps {
  id: string;
  anchor: HTMLElement | null;
  languages: LanguageChooserContents['languages'];
  current: Locale | undefined;
  onChoose(language: Locale): void;
  onClose(): void;
}

/**
 * The menu of the compact language chooser: each language in its own name, the current one checked. A
 * module of its own, loaded when the owner first reaches for the button: MUI's Menu brings Popover and
 * Modal, which the sign-in page does not need to show (issue 13).
 */
export default function LanguageMenu({
  id,
  anchor,
  languages,
  current,
  onChoose,
  onClose,
}: LanguageMenuProps) {
  return (
    <Menu id={id} anchorEl={anchor} open={Boolean(anchor)} onClose={onClose} container={popupContainer}>
      {languages.map((l) => (
        <MenuItem
          key={l.code}
          lang={l.code}
          role="menuitemradio"
          aria-checked={l.code === current}
          selected={l.code === current}
          onClick={() => onChoose(l.code)}
          sx={{ gap: 1 }}
        >
          <CheckIcon fontSize="small" sx={{ visibility: l.code === current ? 'visible' : 'hidden' }} />
          {l.label}
        </MenuItem>
      ))}
    </Menu>
  );
}
