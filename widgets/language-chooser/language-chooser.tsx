import { Suspense, lazy, useId, useState } from 'react';
import { Button } from '@mui/material';
import { Skeleton } from '../skeleton';
import LanguageIcon from '@mui/icons-material/Language';
import { useTranslation } from 'react-i18next';
import type { LanguageChooserContents, Locale } from '../../schemas/generated/types';
import { lazyModule, pagePreloads, retryImport } from '../retry-import';
import type { ContentsCode, WidgetProps } from '../widget-props';

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

/** The list variant (./language-list.tsx), a chunk of its own: fetched before a screen that has it is drawn. */
const listModule = lazyModule(() => import('./language-list'));
const LazyLanguageList = lazy(() => listModule.load().then((m) => ({ default: m.LanguageList })));

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
 * `set_language` then `after_change`. Variant `list`: a radio group (arrow keys move between languages;
 * ./language-list.tsx, a chunk the engine fetches before it draws a screen with it: {@link ContentsCode});
 * variant `compact`: a small button showing the current language that opens a menu of the same.
 */
export function LanguageChooser({ contents, dispatch }: WidgetProps<LanguageChooserContents>) {
  const { t, i18n } = useTranslation();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Decided once per mount: switching from the lazy list to the loaded one would draw the list afresh.
  const [Ready] = useState(() => listModule.loaded()?.LanguageList);
  // The language tapped, shown as chosen at once while its action runs (the dispatcher may still be on its way,
  // renderer/engine/interaction.ts); then the app's language again, whichever it became.
  const [chosen, setChosen] = useState<Locale | null>(null);
  const current = chosen ?? currentCode(contents.languages, i18n.language);
  const title = contents.title ?? t('widgets.language_chooser.title');

  const choose = (language: Locale) => {
    setAnchor(null);
    if (language === current) return;
    setChosen(language);
    void dispatch([{ type: 'set_language', language }, ...(contents.after_change ?? [])]).finally(() =>
      setChosen(null),
    );
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

  const list = { title, languages: contents.languages, current, onChoose: choose };
  if (Ready) return <Ready {...list} />;
  return (
    <Suspense
      // Named as the list will be, and busy until it is there.
      fallback={<Skeleton height={240} role="status" aria-busy="true" aria-label={title} />}
    >
      <LazyLanguageList {...list} />
    </Suspense>
  );
}

// The code the contents need ({@link ContentsCode}): the list variant's chunk; the compact variant needs none.
LanguageChooser.prepare = ((contents) =>
  contents.variant === 'compact'
    ? Promise.resolve()
    : listModule.firstTry(
        pagePreloads('contents-code', 'widgets/language-chooser/language-list.tsx'),
      )) satisfies ContentsCode<LanguageChooserContents>['prepare'];
LanguageChooser.prepared = ((contents) =>
  contents.variant === 'compact' ||
  listModule.loaded() !== null) satisfies ContentsCode<LanguageChooserContents>['prepared'];
