import { useId } from 'react';
import { Box, Typography, type TypographyProps } from '@mui/material';
import type { TextContents } from '../../schemas/generated/types';
import type { FormApi, WidgetProps } from '../widget-props';
import { PhoneAwareText } from '../phone-text';

const variants: Record<
  NonNullable<TextContents['variant']>,
  { variant: TypographyProps['variant']; component: 'h1' | 'h2' | 'p' }
> = {
  title: { variant: 'h5', component: 'h1' },
  subtitle: { variant: 'subtitle1', component: 'h2' },
  body: { variant: 'body1', component: 'p' },
  caption: { variant: 'caption', component: 'p' },
};

/**
 * The text shown: the `value_field` form field when it holds a non-blank string (e.g. the name of the
 * matching property a server answer put there), else `contents.text`.
 */
export function shownText(contents: TextContents, form: FormApi): string {
  return fieldText(contents, form) ?? contents.text;
}

/** The `value_field` form field's text when it holds a non-blank string, else null. */
function fieldText(contents: TextContents, form: FormApi): string | null {
  if (contents.value_field === undefined) return null;
  const value = form.value(contents.value_field);
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * The `text` widget: a heading or a paragraph. `title` is the page's h1, `subtitle` an h2, `body` and
 * `caption` paragraphs; `align` uses logical values (start/end follow the text direction).
 * Long words wrap instead of widening the page on a 360 px screen. With `value_field` it shows that form
 * field's text instead of `text` while the field holds some ({@link shownText}). A phone number in the text
 * reads left to right in every language, in international format (PhoneAwareText, issue 12 item 4).
 * While the field's text shows, `value_label` is drawn above it and names the group that holds both
 * (role group: 'Referrer's name' for the verified name, issue 12 item 19).
 */
export function Text({ contents, form }: WidgetProps<TextContents>) {
  const { variant, component } = variants[contents.variant ?? 'body'];
  const labelId = useId();
  const labelled = contents.value_label !== undefined && fieldText(contents, form) !== null;
  const text = (
    <Typography
      variant={variant}
      component={component}
      sx={{
        textAlign: contents.align ?? 'start',
        overflowWrap: 'anywhere',
        whiteSpace: 'pre-line',
        fontWeight: contents.variant === 'title' ? 600 : undefined,
        color: contents.variant === 'caption' ? 'text.secondary' : undefined,
        display: 'block',
        marginBlock: contents.variant === 'title' ? 1 : 0.5,
      }}
    >
      <PhoneAwareText text={shownText(contents, form)} />
    </Typography>
  );
  if (!labelled) return text;
  return (
    <Box role="group" aria-labelledby={labelId}>
      <Typography id={labelId} variant="caption" component="p" color="text.secondary">
        {contents.value_label}
      </Typography>
      {text}
    </Box>
  );
}
