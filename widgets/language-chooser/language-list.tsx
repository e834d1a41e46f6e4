import { useId } from 'react';
import { FormControl, FormControlLabel, FormLabel, Radio, RadioGroup } from '@mui/material';
import type { LanguageChooserContents, Locale } from '../../schemas/generated/types';

/** What the list variant of the language chooser draws (./language-chooser.tsx). */
export interface LanguageListProps {
  title: string;
  languages: LanguageChooserContents['languages'];
  /** The language the app is in, among `languages`. */
  current: Locale | undefined;
  onChoose(language: Locale): void;
}

/**
 * The `list` variant of the `language_chooser` widget: a radio group, arrow keys moving between languages,
 * each labelled in its own name (with its `lang`). A chunk of its own: the pages before sign-in draw the
 * compact variant, and MUI's radio parts stay out of their code (issue 13 item 2).
 */
export function LanguageList({ title, languages, current, onChoose }: LanguageListProps) {
  const titleId = useId();
  return (
    <FormControl component="fieldset" fullWidth>
      <FormLabel component="legend" id={titleId} sx={{ marginBlockEnd: 1 }}>
        {title}
      </FormLabel>
      <RadioGroup
        aria-labelledby={titleId}
        name={`language-${titleId}`}
        value={current ?? ''}
        onChange={(_e, value) => onChoose(value as Locale)}
      >
        {languages.map((l) => (
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
