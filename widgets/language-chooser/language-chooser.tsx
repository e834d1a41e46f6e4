import { useId, useState } from 'react';
import {
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  Menu,
  MenuItem,
  Radio,
  RadioGroup,
} from '@mui/material';
import LanguageIcon from '@mui/icons-material/Language';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';
import type { LanguageChooserContents, Locale } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

type Language = LanguageChooserContents['languages'][number];

/** The language i18next is using, matched against the offered codes ('en' matches 'en-GB'). */
function currentCode(languages: Language[], active: string | undefined): Locale | undefined {
  if (!active) return undefined;
  const exact = languages.find((l) => l.code === active);
  if (exact) return exact.code;
  const base = active.split('-')[0];
  return languages.find((l) => l.code.split('-')[0] === base)?.code;
}

/**
 * The `language_chooser` widget (SPEC §1): each language labelled in its own name (with its `lang`
 * attribute, so screen readers pronounce it right), the current i18n language selected. Choosing one runs
 * `set_language` then `after_change`. Variant `list`: a radio group (arrow keys move between languages);
 * variant `compact`: a small button showing the current language that opens a menu of the same.
 */
export function LanguageChooser({ contents, dispatch }: WidgetProps<LanguageChooserContents>) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = currentCode(contents.languages, i18n.resolvedLanguage ?? i18n.language);
  const title = contents.title ?? t('widgets.language_chooser.title');

  const choose = (language: Locale) => {
    setAnchor(null);
    if (language === current) return;
    void dispatch([{ type: 'set_language', language }, ...(contents.after_change ?? [])]);
  };

  if (contents.variant === 'compact') {
    const label = contents.languages.find((l) => l.code === current)?.label ?? current ?? '';
    return (
      <>
        <Button
          variant="text"
          size="small"
          startIcon={<LanguageIcon />}
          aria-haspopup="menu"
          aria-expanded={anchor ? true : undefined}
          aria-controls={anchor ? menuId : undefined}
          aria-label={t('widgets.language_chooser.change', { language: label })}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <span lang={current}>{label}</span>
        </Button>
        <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
          {contents.languages.map((l) => (
            <MenuItem
              key={l.code}
              lang={l.code}
              role="menuitemradio"
              aria-checked={l.code === current}
              selected={l.code === current}
              onClick={() => choose(l.code)}
              sx={{ gap: 1 }}
            >
              <CheckIcon fontSize="small" sx={{ visibility: l.code === current ? 'visible' : 'hidden' }} />
              {l.label}
            </MenuItem>
          ))}
        </Menu>
      </>
    );
  }

  return (
    <FormControl component="fieldset" fullWidth>
      <FormLabel component="legend" id={titleId} sx={{ marginBlockEnd: 1 }}>
        {title}
      </FormLabel>
      <RadioGroup
        aria-labelledby={titleId}
        name={`language-${titleId}`}
        value={current ?? ''}
        onChange={(_e, value) => choose(value as Locale)}
      >
        {contents.languages.map((l) => (
          <FormControlLabel
            key={l.code}
            value={l.code}
            control={<Radio />}
            label={<span lang={l.code}>{l.label}</span>}
            sx={{
              marginInline: 0,
              paddingBlock: 0.5,
              borderBlockEnd: 1,
              borderColor: 'divider',
              minHeight: 48,
            }}
          />
        ))}
      </RadioGroup>
    </FormControl>
  );
}
