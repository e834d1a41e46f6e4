import { Typography, type TypographyProps } from '@mui/material';
import type { TextContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

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
 * The `text` widget: a heading or a paragraph. `title` is the page's h1, `subtitle` an h2, `body` and
 * `caption` paragraphs; `align` uses logical values (start/end follow the text direction).
 * Long words wrap instead of widening the page on a 360 px screen.
 */
export function Text({ contents }: WidgetProps<TextContents>) {
  const { variant, component } = variants[contents.variant ?? 'body'];
  return (
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
      {contents.text}
    </Typography>
  );
}
