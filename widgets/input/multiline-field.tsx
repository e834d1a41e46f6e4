import { Box } from '@mui/material';
import { TextField } from './text-field';
import { useTranslation } from 'react-i18next';
import type { InputContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';
import { isRequired, stringValue } from './shared';

/**
 * The `multiline` kind of the input widget: a textarea (3 to 8 rows, then it scrolls) that stops at
 * `max_length` characters and shows a character count 'n / max' beside the helper text or error, both in
 * the field's description (aria-describedby).
 */
export function MultilineField({ id, contents, form }: WidgetProps<InputContents>) {
  const { t } = useTranslation();
  const error = form.error(contents.field);
  const value = stringValue(form, contents.field);
  const max = contents.max_length;
  const hint = error ?? contents.helper_text;
  return (
    <TextField
      id={`${id}-${contents.field}`}
      name={contents.field}
      label={contents.label}
      multiline
      minRows={3}
      maxRows={8}
      value={value}
      onChange={(e) => form.setValue(contents.field, e.target.value)}
      required={isRequired(contents, form)}
      error={Boolean(error)}
      helperText={
        hint !== undefined || max !== undefined ? (
          <Box component="span" sx={{ display: 'flex', gap: 1, justifyContent: 'space-between' }}>
            <Box component="span">{hint}</Box>
            {/* Not drawn in the flex row, but keeps the two parts apart when read out. */}{' '}
            {max !== undefined && (
              <Box component="span" sx={{ flexShrink: 0 }} dir="ltr">
                {t('widgets.input.character_count', { count: value.length, max })}
              </Box>
            )}
          </Box>
        ) : undefined
      }
      placeholder={contents.placeholder}
      autoFocus={contents.autofocus}
      fullWidth
      slotProps={{ htmlInput: { maxLength: max } }}
    />
  );
}
