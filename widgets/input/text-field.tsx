import type { ChangeEvent, FocusEvent, InputHTMLAttributes, ReactElement, ReactNode } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import { useFocusOnceDrawn } from './focus-once-drawn';

/** Props of {@link TextField}: the subset of MUI's TextField props the input widget uses. */
export interface TextFieldProps {
  id: string;
  name?: string;
  label?: ReactNode;
  required?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  placeholder?: string;
  /** Focus the field once the screen is painted ({@link useFocusOnceDrawn}), not during React's commit. */
  autoFocus?: boolean;
  fullWidth?: boolean;
  type?: string;
  autoComplete?: string;
  value: string;
  /** With `select`, the event of the `<select>` (its `target.value` is the option chosen). */
  onChange?: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  onBlur?: (event: FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  multiline?: boolean;
  minRows?: number;
  maxRows?: number;
  /** A native `<select>` of the `<option>` children (the phone field's country). */
  select?: boolean;
  /**
   * With `select`: called when the owner reaches the `<select>` (pointer down, touch start or focus), before
   * the phone's picker opens; the phone field fills its list of countries then.
   */
  onReach?: () => void;
  /** Drawn at the end inside the outline (the password field's show/hide button). */
  endAdornment?: ReactNode;
  children?: ReactNode;
  sx?: SxProps<Theme>;
  slotProps?: {
    htmlInput?: InputHTMLAttributes<HTMLInputElement> & Record<`data-${string}`, string>;
    inputLabel?: { shrink?: boolean };
  };
}

/**
 * An outlined text field drawn as MUI's TextField draws one (FormControl, InputLabel, OutlinedInput,
 * FormHelperText; the same ids: `<id>-label`, `<id>-helper-text`, the helper text as the input's
 * description), without TextField itself: TextField imports Select, and with it Menu, Popover and Modal,
 * ≈20 KB gzip the sign-in page does not need (issue 13). `select` draws a native `<select>` (NativeSelect).
 */
export function TextField({
  id,
  label,
  required,
  error,
  helperText,
  fullWidth,
  sx,
  select,
  children,
  slotProps,
  endAdornment,
  onReach,
  autoFocus,
  ...input
}: TextFieldProps): ReactElement {
  const focusRef = useFocusOnceDrawn<HTMLElement>(autoFocus);
  const helperId =
    helperText !== undefined && helperText !== null && helperText !== '' ? `${id}-helper-text` : undefined;
  const labelId = label !== undefined ? `${id}-label` : undefined;
  const outlined = <OutlinedInput label={label} />;
  return (
    <FormControl variant="outlined" required={required} error={error} fullWidth={fullWidth} sx={sx}>
      {label !== undefined && (
        <InputLabel htmlFor={id} id={labelId} shrink={slotProps?.inputLabel?.shrink}>
          {label}
        </InputLabel>
      )}
      {select ? (
        <NativeSelect
          id={id}
          name={input.name}
          value={input.value}
          onChange={input.onChange as ((event: ChangeEvent<HTMLSelectElement>) => void) | undefined}
          onBlur={input.onBlur}
          inputRef={focusRef}
          input={outlined}
          inputProps={{
            'aria-describedby': helperId,
            onFocus: onReach,
            onPointerDown: onReach,
            onTouchStart: onReach,
          }}
        >
          {children}
        </NativeSelect>
      ) : (
        <OutlinedInput
          {...input}
          id={id}
          label={label}
          aria-describedby={helperId}
          endAdornment={endAdornment}
          inputRef={focusRef}
          inputProps={slotProps?.htmlInput}
        />
      )}
      {helperId && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
