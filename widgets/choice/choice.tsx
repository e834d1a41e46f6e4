import { useEffect, useId, type CSSProperties } from 'react';
import { Box, FormHelperText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ChoiceContents } from '../../schemas/generated/types';
import type { FormApi, WidgetProps } from '../widget-props';

type ChoiceOption = ChoiceContents['options'][number];

/** Hides the native radio while keeping it focusable and announced (the card or chip is what shows). */
const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/**
 * The options shown: all of them, or with `depends_on` those whose `group` equals that field's value (none
 * while it is empty), e.g. the sub types of the chosen property type.
 */
export function shownOptions(contents: ChoiceContents, form: FormApi): ChoiceOption[] {
  if (contents.depends_on === undefined) return contents.options;
  const selected = form.value(contents.depends_on);
  return contents.options.filter((option) => option.group !== undefined && option.group === selected);
}

/**
 * The `choice` widget (issue 3: property type and sub type): one of several options bound to
 * `contents.field`. A radio group (role radiogroup, named by the visible label, aria-required, the error from
 * `form.error(field)` below it as its description) of native radio inputs, drawn as cards (label and
 * description, the default) or chips; arrow keys move between options as with any radio group. With
 * `depends_on` only the options of the selected group show, the widget draws nothing while none do, and a
 * value whose option is no longer shown is cleared.
 */
export function Choice({ id, contents, form }: WidgetProps<ChoiceContents>) {
  const { t } = useTranslation();
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const messageId = `${baseId}-message`;
  const options = shownOptions(contents, form);
  const value = form.value(contents.field);
  const error = form.error(contents.field);
  const chips = contents.variant === 'chips';
  const hint = error ?? contents.helper_text;
  const stale = value !== undefined && value !== null && !options.some((option) => option.value === value);

  useEffect(() => {
    if (stale) form.setValue(contents.field, undefined);
  }, [stale, form, contents.field]);

  if (options.length === 0 && contents.depends_on !== undefined) return null;

  return (
    <Box>
      <Typography
        id={labelId}
        component="div"
        variant="subtitle1"
        sx={{ fontWeight: 600, marginBlockEnd: 1 }}
        color={error ? 'error' : 'text.primary'}
      >
        {contents.label}
        {contents.required && (
          <Box component="span" aria-hidden="true" title={t('widgets.choice.required')}>
            {' *'}
          </Box>
        )}
      </Typography>
      <Box
        role="radiogroup"
        aria-labelledby={labelId}
        aria-required={contents.required === true}
        aria-invalid={Boolean(error)}
        aria-describedby={hint ? messageId : undefined}
        sx={{
          display: 'flex',
          flexDirection: chips ? 'row' : 'column',
          flexWrap: chips ? 'wrap' : 'nowrap',
          gap: chips ? 1 : 1.5,
        }}
      >
        {options.map((option) => {
          const checked = option.value === value;
          const labelTextId = `${baseId}-${option.value}-label`;
          const descriptionId = `${baseId}-${option.value}-description`;
          return (
            <Box
              key={option.value}
              component="label"
              data-checked={checked}
              sx={(theme) => ({
                position: 'relative',
                display: 'flex',
                flexDirection: 'column',
                gap: 0.5,
                cursor: 'pointer',
                border: `${checked ? 2 : 1}px solid`,
                borderColor: checked
                  ? theme.palette.primary.main
                  : error
                    ? theme.palette.error.main
                    : theme.palette.divider,
                backgroundColor: checked ? theme.palette.action.selected : theme.palette.background.paper,
                borderRadius: chips ? 999 : 2,
                paddingBlock: chips ? 0.75 : 1.5,
                paddingInline: chips ? 2 : 2,
                minBlockSize: chips ? 40 : 56,
                justifyContent: 'center',
                overflowWrap: 'anywhere',
                '&:has(input:focus-visible)': {
                  outline: `2px solid ${theme.palette.primary.main}`,
                  outlineOffset: 2,
                },
              })}
            >
              <input
                type="radio"
                name={`${id}-${contents.field}`}
                value={option.value}
                checked={checked}
                onChange={() => form.setValue(contents.field, option.value)}
                aria-labelledby={labelTextId}
                aria-describedby={option.description && !chips ? descriptionId : undefined}
                style={visuallyHidden}
              />
              <Typography
                id={labelTextId}
                component="span"
                variant={chips ? 'body2' : 'body1'}
                sx={{ fontWeight: checked ? 600 : 400 }}
              >
                {option.label}
              </Typography>
              {option.description && !chips && (
                <Typography id={descriptionId} component="span" variant="body2" color="text.secondary">
                  {option.description}
                </Typography>
              )}
            </Box>
          );
        })}
      </Box>
      {hint && (
        <FormHelperText id={messageId} error={Boolean(error)}>
          {hint}
        </FormHelperText>
      )}
    </Box>
  );
}
