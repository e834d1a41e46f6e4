import { Suspense, lazy, useId, useState } from 'react';
import { Button, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup } from '@mui/material';
import LanguageIcon from '@mui/icons-material/Language';
import { useTranslation } from 'react-i18next';
import type { LanguageChooserContents, Locale } from '../../schemas/generated/types';
import { retryImport } from '../retry-import';
import type { WidgetProps } from '../widget-props';

/** Starts loading the compact variant's menu (./language-menu.tsx); the same promise every time. */
let menuModule: Promise<typeof import('./language-menu')> | null = null;
function loadMenu(): Promise<typeof import('./language-menu')> {
  menuModule ??= retryImport(() => import('./language-menu')).catch((error: unknown) => {
    menuModule = null;
    throw error;
  });
  return menuModule;
}
const LanguageMenu = lazy(loadMenu);

type Language = LanguageChooserContents['languages'][number];

/**
 * The language the app is in, matched against the offered codes ('en' matches 'en-GB'). `active` is
 * i18next's `language`: the one the owner chose (or the app started in). Not `resolvedLanguage`, which
 * i18next fixes when the language changes, before that language's texts arrive, so it keeps naming
 * the fallback (en-GB) after a switch (issue 12 item 3).
 */
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
  const current = currentCode(contents.languages, i18n.language);
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
          // The menu's code starts loading as the finger or the keyboard reaches the button.
          onPointerDown={() => void loadMenu().catch(() => undefined)}
          onFocus={() => void loadMenu().catch(() => undefined)}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <span lang={current}>{label}</span>
        </Button>
        {anchor && (
          <Suspense fallback={null}>
            <LanguageMenu
              id={menuId}
              anchor={anchor}
              languages={contents.languages}
              current={current}
              onChoose={choose}
              onClose={() => setAnchor(null)}
            />
          </Suspense>
        )}
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
