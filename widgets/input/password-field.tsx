import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InputContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';
import { commonFieldProps, stringValue } from './shared';
import { TextField } from './text-field';

/**
 * The `password` kind of the input widget: hidden as typed (type=password), with a button after it that
 * shows or hides the text. The button is a real button (Tab reaches it, Enter and Space press it) named
 * 'Show password' / 'Hide password' and carrying `aria-pressed` and `aria-controls`, so a screen reader
 * says what it does and whether the text is shown. `autocomplete` is current-password unless
 * `contents.autocomplete` says new-password. Never trimmed; the value goes to the form as typed.
 */
export function PasswordField({ id, contents, form }: WidgetProps<InputContents>) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const error = form.error(contents.field);
  const inputId = `${id}-${contents.field}`;
  return (
    <TextField
      {...commonFieldProps(id, contents, form, error)}
      type={shown ? 'text' : 'password'}
      autoComplete={contents.autocomplete ?? 'current-password'}
      value={stringValue(form, contents.field)}
      onChange={(e) => form.setValue(contents.field, e.target.value)}
      slotProps={{
        htmlInput: {
          maxLength: contents.max_length ?? 128,
          dir: 'ltr',
          autoCapitalize: 'none',
          autoCorrect: 'off',
          spellCheck: false,
        },
      }}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            edge="end"
            onClick={() => setShown((s) => !s)}
            aria-label={t(shown ? 'widgets.input.hide_password' : 'widgets.input.show_password')}
            aria-pressed={shown}
            aria-controls={inputId}
          >
            {shown ? <VisibilityOff /> : <Visibility />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}
