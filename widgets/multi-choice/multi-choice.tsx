import { useId } from 'react';
import { Box, Checkbox, Chip, FormControlLabel, FormHelperText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { MultiChoiceContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

type MultiChoiceOption = MultiChoiceContents['options'][number];

/** Options under one heading (`group`; undefined for options listed without one). */
interface OptionGroup {
  name: string | undefined;
  options: MultiChoiceOption[];
}

/** The options grouped by `group`, groups in the order they first come, options in their order. */
export function groupOptions(options: readonly MultiChoiceOption[]): OptionGroup[] {
  const groups: OptionGroup[] = [];
  for (const option of options) {
    const group = groups.find((g) => g.name === option.group);
    if (group) group.options.push(option);
    else groups.push({ name: option.group, options: [option] });
  }
  return groups;
}

/** The values picked: the field's array (anything else counts as none). */
function pickedValues(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The `multi_choice` widget (issue 3b: amenities): any number of options bound to `contents.field` as an
 * array of option values, kept in the options' order. A fieldset (role group) named by its legend (the
 * label), the options listed under their `group` headings (h2 below the page's h1, each heading a named group) as MUI checkboxes
 * with their label (the accessible name) and description; mandatory options carry the `mandatory_label` tag
 * (or 'Mandatory'), read as part of their description. The error from `form.error(field)`, else the helper
 * text, shows under it and describes the fieldset.
 */
export function MultiChoice({ contents, form }: WidgetProps<MultiChoiceContents>) {
  const { t } = useTranslation();
  const baseId = useId();
  const messageId = `${baseId}-message`;
  const picked = pickedValues(form.value(contents.field));
  const error = form.error(contents.field);
  const hint = error ?? contents.helper_text;
  const mandatoryTag = contents.mandatory_label ?? t('widgets.multi_choice.mandatory');
  const groups = groupOptions(contents.options);

  const toggle = (value: string, checked: boolean) => {
    const next = new Set(picked);
    if (checked) next.add(value);
    else next.delete(value);
    form.setValue(
      contents.field,
      contents.options.filter((option) => next.has(option.value)).map((option) => option.value),
    );
  };

  const renderOption = (option: MultiChoiceOption, index: number) => {
    const optionId = `${baseId}-option-${index}`;
    const labelId = `${optionId}-label`;
    const tagId = `${optionId}-tag`;
    const descriptionId = `${optionId}-description`;
    const describedBy = [option.mandatory ? tagId : undefined, option.description ? descriptionId : undefined]
      .filter(Boolean)
      .join(' ');
    const checked = picked.includes(option.value);
    return (
      <FormControlLabel
        key={option.value}
        data-checked={checked}
        sx={{
          alignItems: 'flex-start',
          marginInline: 0,
          paddingBlock: 0.5,
          gap: 0.5,
          overflowWrap: 'anywhere',
        }}
        control={
          <Checkbox
            checked={checked}
            onChange={(event) => toggle(option.value, event.target.checked)}
            sx={{ paddingBlock: 0.5, paddingInline: 0.5 }}
            slotProps={{
              input: {
                'aria-labelledby': labelId,
                'aria-describedby': describedBy || undefined,
              },
            }}
          />
        }
        label={
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.25, paddingBlockStart: 0.75 }}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
              <Typography id={labelId} component="span" variant="body1">
                {option.label}
              </Typography>
              {option.mandatory && (
                <Chip
                  id={tagId}
                  component="span"
                  size="small"
                  color="warning"
                  variant="outlined"
                  label={mandatoryTag}
                />
              )}
            </Box>
            {option.description && (
              <Typography id={descriptionId} component="span" variant="body2" color="text.secondary">
                {option.description}
              </Typography>
            )}
          </Box>
        }
      />
    );
  };

  let index = 0;
  return (
    <Box
      component="fieldset"
      aria-invalid={Boolean(error)}
      aria-describedby={hint ? messageId : undefined}
      sx={{ border: 0, margin: 0, padding: 0, minInlineSize: 0 }}
    >
      <Typography
        component="legend"
        variant="subtitle1"
        sx={{ fontWeight: 600, marginBlockEnd: 1, padding: 0 }}
        color={error ? 'error' : 'text.primary'}
      >
        {contents.label}
        {contents.required && (
          <Box component="span" aria-hidden="true" title={t('widgets.multi_choice.required')}>
            {' *'}
          </Box>
        )}
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {groups.map((group, groupIndex) => {
          const headingId = `${baseId}-group-${groupIndex}`;
          const options = group.options.map((option) => renderOption(option, index++));
          if (group.name === undefined) {
            return (
              <Box key={`ungrouped-${groupIndex}`} sx={{ display: 'flex', flexDirection: 'column' }}>
                {options}
              </Box>
            );
          }
          return (
            <Box
              key={`${group.name}-${groupIndex}`}
              role="group"
              aria-labelledby={headingId}
              sx={{ display: 'flex', flexDirection: 'column' }}
            >
              <Typography
                id={headingId}
                component="h2"
                variant="subtitle2"
                color="text.secondary"
                sx={{ marginBlockEnd: 0.5, textTransform: 'uppercase', letterSpacing: 0.5 }}
              >
                {group.name}
              </Typography>
              {options}
            </Box>
          );
        })}
      </Box>
      {hint && (
        <FormHelperText id={messageId} error={Boolean(error)} sx={{ marginInline: 0 }}>
          {hint}
        </FormHelperText>
      )}
    </Box>
  );
}
