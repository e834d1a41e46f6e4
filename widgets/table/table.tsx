import { Box, Typography } from '@mui/material';
import type { TableContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

/**
 * The `table` widget (issue 12 item 16): a semantic `<table>` of labelled values, e.g. the fees of the terms
 * page — the caption as its visible title, each row's label a header cell (`<th scope="row">`) and its value
 * a data cell. Values come formatted for the owner's language (Intl rates, currency, SPEC §9 dates) and are
 * isolated so that digits and symbols keep their order in right-to-left languages. Long labels wrap.
 */
export function Table({ contents }: WidgetProps<TableContents>) {
  return (
    <Box
      component="table"
      sx={(theme) => ({
        inlineSize: '100%',
        borderCollapse: 'collapse',
        marginBlock: 1,
        '& caption': { captionSide: 'top', textAlign: 'start', paddingBlockEnd: 1 },
        '& th, & td': {
          paddingBlock: 1,
          paddingInline: 1,
          borderBlockEnd: `1px solid ${theme.palette.divider}`,
          textAlign: 'start',
          verticalAlign: 'top',
          overflowWrap: 'anywhere',
        },
        '& th': { fontWeight: 400, color: theme.palette.text.secondary, inlineSize: '55%' },
        '& td': { fontWeight: 600 },
      })}
    >
      <Typography component="caption" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {contents.caption}
      </Typography>
      <tbody>
        {contents.rows.map((row, index) => (
          <tr key={index}>
            <Typography component="th" scope="row" variant="body2">
              {row.label}
            </Typography>
            <Typography component="td" variant="body2">
              <bdi>{row.value}</bdi>
            </Typography>
          </tr>
        ))}
      </tbody>
    </Box>
  );
}
