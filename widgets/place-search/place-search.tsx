import { useEffect, useState } from 'react';
import { Autocomplete, CircularProgress, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PlaceSearchContents } from '../../schemas/generated/types';
import type { LoadQuery, WidgetProps } from '../widget-props';
import { isRecord } from '../../schemas/app/is-record';

/** Characters typed before searching when the contents give none. */
export const DEFAULT_MIN_CHARS = 2;
/** Quiet time after the last keystroke before searching when the contents give none, in ms. */
export const DEFAULT_DEBOUNCE_MS = 300;

/**
 * One suggestion as the endpoint answers it (the BFF's Place: id, name, country, state, lat, lng, label, …).
 * The widget needs only `label`; the whole object is handed to on_select.
 */
export interface PlaceOption {
  id?: string | number;
  label: string;
  [key: string]: unknown;
}

type SearchState = 'idle' | 'loading' | 'done' | 'error';

/** The places of an answer `{ places: [...] }`: those with a text label; [] for anything else. */
export function placesOf(data: unknown): PlaceOption[] {
  if (!isRecord(data) || !Array.isArray(data.places)) return [];
  return data.places.filter(
    (place): place is PlaceOption => isRecord(place) && typeof place.label === 'string' && place.label !== '',
  );
}

function isAbort(error: unknown): boolean {
  return isRecord(error) && error.name === 'AbortError';
}

/**
 * The `place_search` widget (SPEC §3 address: search options, selected city): a free-text combobox (MUI
 * Autocomplete, keyboard and screen-reader accessible) bound to `contents.field`. Once the user has typed at
 * least `min_chars` characters (trimmed) and paused `debounce_ms` ms, it asks
 * `load(endpoint, { ...query, q })` for suggestions, aborting the previous request; a spinner shows while it waits, `empty_text` when nothing
 * was found, `error_text` (or a built-in text) when the search failed. Choosing a suggestion puts its label in
 * the field and dispatches `on_select` with `response = { success: true, data: <the place> }`, so rules read
 * `response.data.lat` or `response.data.name`. Text the user just types (free text) dispatches nothing.
 */
export function PlaceSearch({ id, contents, form, dispatch, load }: WidgetProps<PlaceSearchContents>) {
  const { t } = useTranslation();
  const field = contents.field;
  const raw = form.value(field);
  const text = typeof raw === 'string' ? raw : '';
  const error = form.error(field);

  const [selected, setSelected] = useState<PlaceOption | null>(null);
  const [options, setOptions] = useState<PlaceOption[]>([]);
  const [state, setState] = useState<SearchState>('idle');
  // What the user typed last (null until they type: a value restored from a draft searches nothing).
  const [typed, setTyped] = useState<string | null>(null);

  const minChars = contents.min_chars ?? DEFAULT_MIN_CHARS;
  const debounceMs = contents.debounce_ms ?? DEFAULT_DEBOUNCE_MS;
  const endpoint = contents.endpoint;
  const extraKey = JSON.stringify(contents.query ?? {});

  useEffect(() => {
    if (typed === null) return undefined;
    const q = typed.trim();
    if (q.length < minChars) {
      setOptions([]);
      setState('idle');
      return undefined;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState('loading');
      const query: LoadQuery = { ...(JSON.parse(extraKey) as LoadQuery), q };
      load(endpoint, query, controller.signal).then(
        (data) => {
          if (controller.signal.aborted) return;
          setOptions(placesOf(data));
          setState('done');
        },
        (failure: unknown) => {
          if (controller.signal.aborted || isAbort(failure)) return;
          setOptions([]);
          setState('error');
        },
      );
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [typed, minChars, debounceMs, endpoint, extraKey, load]);

  const message =
    error ??
    (state === 'error'
      ? (contents.error_text ?? t('widgets.place_search.error'))
      : state === 'done' && options.length === 0
        ? contents.empty_text
        : undefined);
  const loading = state === 'loading';

  return (
    <Autocomplete<PlaceOption, false, false, true>
      id={`${id}-${field}`}
      freeSolo
      options={options}
      value={selected}
      inputValue={text}
      // The server has already matched the text; MUI's own filtering would hide fuzzy matches.
      filterOptions={(all) => all}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.label)}
      getOptionKey={(option) => (typeof option === 'string' ? option : String(option.id ?? option.label))}
      isOptionEqualToValue={(option, value) =>
        typeof value !== 'string' && (option.id ?? option.label) === (value.id ?? value.label)
      }
      loading={loading}
      loadingText={t('widgets.place_search.loading')}
      clearText={t('widgets.place_search.clear')}
      onInputChange={(_event, value, reason) => {
        if (reason !== 'input' && reason !== 'clear') return;
        form.setValue(field, value);
        setSelected(null);
        setTyped(value);
      }}
      onChange={(_event, value) => {
        if (value === null || typeof value === 'string') return;
        setSelected(value);
        setOptions([]);
        setState('idle');
        form.setValue(field, value.label);
        void dispatch(contents.on_select, { response: { success: true, data: value } });
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          name={field}
          label={contents.label}
          placeholder={contents.placeholder}
          error={Boolean(error) || state === 'error'}
          helperText={message}
          slotProps={{
            ...params.slotProps,
            formHelperText: { role: state === 'error' && !error ? 'alert' : 'status' },
            input: {
              ...params.slotProps.input,
              endAdornment: (
                <>
                  {loading && (
                    <CircularProgress
                      color="inherit"
                      size={20}
                      aria-label={t('widgets.place_search.loading')}
                    />
                  )}
                  {params.slotProps.input.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}
