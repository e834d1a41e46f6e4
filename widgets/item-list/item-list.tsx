import { useEffect, useId, useRef } from 'react';
import { Box, Button, FormHelperText, IconButton, Paper, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { ItemListContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

type Item = Record<string, unknown>;
type ItemField = ItemListContents['fields'][number];

/** Items when none is given by the schema. */
const DEFAULT_MAX_ITEMS = 20;

function isItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The field's items: the objects of its array (anything else counts as none). */
function itemsOf(value: unknown): Item[] {
  return Array.isArray(value) ? value.map((item) => (isItem(item) ? item : {})) : [];
}

/** Fills `{{name}}` placeholders of a server text (already translated). */
export function fillText(text: string, values: Record<string, number | undefined>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : String(value);
  });
}

/** Sum of one number key over the items (anything not a whole number counts 0). */
export function sumOf(items: readonly Item[], key: string): number {
  return items.reduce((sum, item) => {
    const v = item[key];
    return sum + (typeof v === 'number' && Number.isSafeInteger(v) ? v : 0);
  }, 0);
}

/** Eastern Arabic and Persian digits typed on an Arabic keyboard, as 0–9. */
function asciiDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) & 0xf));
}

/**
 * The number typed in a number field: digits only (a leading minus when `min` is negative), as a number;
 * undefined when nothing is left.
 */
export function parseWhole(raw: string, allowNegative: boolean): number | undefined {
  const text = asciiDigits(raw).trim();
  const negative = allowNegative && text.startsWith('-');
  const digits = text.replace(/[^0-9]/g, '').slice(0, 15);
  if (digits === '') return undefined;
  const n = Number(digits);
  return negative ? -n : n;
}

/**
 * The `item_list` widget (issue 3b: room categories): a list the owner grows and shrinks, bound to
 * `contents.field` as an array of objects with the keys of `fields`. A group named by the label; each item a
 * card (a group named by its h2 heading `item_label`, `{{n}}` its position) with its fields — text (a TextField
 * with max_length; cleared, its key is removed) or number (whole numbers only, inputMode numeric, stored as numbers; a cleared number
 * removes its key) — and a remove button (named remove_label + the heading). The add button is disabled at
 * max_items and focuses the new item's first field. With `total`, a polite live line shows `total.label`
 * with {{total}} (the sum of `total.key`) and {{expected}} filled. The error from `form.error(field)`, else
 * the helper text, shows under the list and describes the group.
 */
export function ItemList({ contents, form }: WidgetProps<ItemListContents>) {
  const { t } = useTranslation();
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const messageId = `${baseId}-message`;
  const items = itemsOf(form.value(contents.field));
  const error = form.error(contents.field);
  const hint = error ?? contents.helper_text;
  const max = contents.max_items ?? DEFAULT_MAX_ITEMS;
  const full = items.length >= max;
  const addRef = useRef<HTMLButtonElement>(null);
  /** What to focus after the next render: the first field of an item, or the add button. */
  const pendingFocus = useRef<{ item: number } | 'add' | null>(null);

  const fieldId = (index: number, field: ItemField) => `${baseId}-${index}-${field.key}`;
  const headingOf = (index: number) => fillText(contents.item_label, { n: index + 1 });

  useEffect(() => {
    const target = pendingFocus.current;
    if (target === null) return;
    pendingFocus.current = null;
    if (target === 'add') {
      addRef.current?.focus();
      return;
    }
    const first = contents.fields[0];
    document.getElementById(fieldId(target.item, first))?.focus();
  });

  const write = (next: Item[]) => form.setValue(contents.field, next);

  const setItemField = (index: number, field: ItemField, raw: string) => {
    const next = items.map((item) => ({ ...item }));
    const item = next[index];
    if (item === undefined) return;
    if (field.kind === 'number') {
      const n = parseWhole(raw, field.min !== undefined && field.min < 0);
      if (n === undefined) delete item[field.key];
      else item[field.key] = n;
    } else if (raw === '') {
      delete item[field.key];
    } else {
      item[field.key] = raw;
    }
    write(next);
  };

  const add = () => {
    if (full) return;
    pendingFocus.current = { item: items.length };
    write([...items, {}]);
  };

  const remove = (index: number) => {
    // The remove button of the next item takes the place of this one; after the last, focus the add button.
    if (index >= items.length - 1) pendingFocus.current = 'add';
    write(items.filter((_, i) => i !== index));
  };

  const total = contents.total;
  const totalLine = total
    ? fillText(total.label, { total: sumOf(items, total.key), expected: total.expected })
    : undefined;
  const totalReached = total?.expected !== undefined && sumOf(items, total.key) === total.expected;

  return (
    <Box
      role="group"
      aria-labelledby={labelId}
      aria-invalid={Boolean(error)}
      aria-describedby={hint ? messageId : undefined}
    >
      <Typography
        id={labelId}
        component="div"
        variant="subtitle1"
        sx={{ fontWeight: 600, marginBlockEnd: 1 }}
        color={error ? 'error' : 'text.primary'}
      >
        {contents.label}
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        {items.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('widgets.item_list.empty')}
          </Typography>
        )}
        {items.map((item, index) => {
          const headingId = `${baseId}-${index}-heading`;
          const heading = headingOf(index);
          return (
            <Paper
              // Index keys: the inputs are controlled, and after a removal the next item's remove button
              // stays where the focus was.
              key={index}
              variant="outlined"
              role="group"
              aria-labelledby={headingId}
              sx={{ paddingBlock: 1.5, paddingInline: 2, borderRadius: 2 }}
            >
              <Box
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'space-between',
                  gap: 1,
                  marginBlockEnd: 1,
                }}
              >
                <Typography
                  id={headingId}
                  component="h2"
                  variant="subtitle2"
                  sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
                >
                  {heading}
                </Typography>
                <IconButton
                  aria-label={t('widgets.item_list.remove_item', {
                    action: contents.remove_label,
                    item: heading,
                  })}
                  title={contents.remove_label}
                  onClick={() => remove(index)}
                  edge="end"
                  size="medium"
                  sx={{ marginInlineEnd: -1 }}
                >
                  <DeleteOutlineIcon />
                </IconButton>
              </Box>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
                {contents.fields.map((field) => {
                  const value = item[field.key];
                  const shown =
                    typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
                  const number = field.kind === 'number';
                  return (
                    <TextField
                      key={field.key}
                      id={fieldId(index, field)}
                      label={field.label}
                      value={shown}
                      onChange={(event) => setItemField(index, field, event.target.value)}
                      // One field per line at the size of every other field (56 px), so labels such as
                      // 'Number of rooms' show whole on a 412 px phone (issue 12 item 15).
                      sx={{ flex: '1 1 100%', minInlineSize: 0 }}
                      slotProps={{
                        htmlInput: number
                          ? {
                              inputMode: 'numeric',
                              pattern: field.min !== undefined && field.min < 0 ? '-?[0-9]*' : '[0-9]*',
                              min: field.min,
                              max: field.max,
                            }
                          : { maxLength: field.max_length },
                      }}
                    />
                  );
                })}
              </Box>
            </Paper>
          );
        })}
      </Box>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 1,
          marginBlockStart: 1.5,
        }}
      >
        <Button ref={addRef} variant="outlined" startIcon={<AddIcon />} onClick={add} disabled={full}>
          {contents.add_label}
        </Button>
        {totalLine !== undefined && (
          <Typography
            aria-live="polite"
            variant="body2"
            sx={{ fontWeight: 600 }}
            color={totalReached ? 'success.main' : 'text.secondary'}
          >
            {totalLine}
          </Typography>
        )}
      </Box>
      {full && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ marginBlockStart: 0.5 }}>
          {t('widgets.item_list.max_reached', { max })}
        </Typography>
      )}
      {hint && (
        <FormHelperText id={messageId} error={Boolean(error)} sx={{ marginInline: 0 }}>
          {hint}
        </FormHelperText>
      )}
    </Box>
  );
}
