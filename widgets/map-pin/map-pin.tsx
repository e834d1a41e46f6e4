import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, FormHelperText, Typography, useTheme } from '@mui/material';
import MyLocationIcon from '@mui/icons-material/MyLocation';
import { useTranslation } from 'react-i18next';
import type { MapPinContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';
import { formatLatLng, pinKey, pinOf, roundLatLng, type LatLng } from './coordinates';
import { currentPosition } from './geolocation';
import type { PinMap, PinMapTexts } from './leaflet-map';

/** Zoom level when the contents give none. */
export const DEFAULT_ZOOM = 15;
/** Quiet time after the user's last move before on_change runs, in ms. */
export const ON_CHANGE_DEBOUNCE_MS = 400;
/** Height of the map on a phone, in px. */
const MAP_HEIGHT = 280;

type MapState = 'loading' | 'ready' | 'failed';
type LocateError = 'denied' | 'unavailable' | null;

/**
 * The `map_pin` widget (SPEC §2 'pin exact location on a map', §3 latitude / longitude, §9 default
 * coordinates and location throttle): a Leaflet map, loaded lazily (./leaflet-map), with a draggable pin.
 * The pin's coordinates live in the form fields `lat_field` / `lng_field` as numbers with 6 decimals.
 *
 * - While no pin is set the map shows `default_center` and a faded pin; the first tap, drag, arrow key or
 *   locate sets it. Tapping the map moves the pin; the focused pin moves with the arrow keys.
 * - A user move writes both fields and, {@link ON_CHANGE_DEBOUNCE_MS} ms after the last one, dispatches
 *   `on_change` (e.g. a quiet reverse-geocoding fetch). Fields changed from elsewhere (another widget's
 *   set_value, a restored draft) move the pin and recentre the map without dispatching.
 * - `locate.on_result`: actions run after each ask with `response.data.result` (granted, reused, denied,
 *   unavailable), e.g. an action carrying the location permission analytics event (SPEC §3, issue 15).
 * - `locate`: a button that asks for the current position (engine-free: `currentPosition` of ./geolocation,
 *   reusing a position read less than `throttle_ms` ago); while waiting it shows `locating_label` and a
 *   progress indicator; refusal shows `denied_message`, other failures `unavailable_message` (role alert).
 *   With `auto_when` it asks by itself once, when that rule over {form} turns true while no pin is set.
 * - Without `tile_url` no tile is requested: the map is a plain light background on which everything works.
 * - The coordinates line ('28.399174, 77.038765') is a polite live region; the form error of either field
 *   shows below. The map region is named by the visible label; the map itself is always left to right.
 */
export function MapPin({ contents, form, dispatch }: WidgetProps<MapPinContents>) {
  const { t } = useTranslation();
  const theme = useTheme();
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const hintId = `${baseId}-hint`;
  const errorId = `${baseId}-error`;
  const { lat_field: latField, lng_field: lngField, locate } = contents;

  const pin = pinOf(form.value(latField), form.value(lngField));
  const error = form.error(latField) ?? form.error(lngField);
  const texts: PinMapTexts = {
    zoomIn: t('widgets.map_pin.zoom_in'),
    zoomOut: t('widgets.map_pin.zoom_out'),
    pin: t('widgets.map_pin.pin'),
  };

  const containerRef = useRef<HTMLDivElement | null>(null);
  const mapRef = useRef<PinMap | null>(null);
  const [mapState, setMapState] = useState<MapState>('loading');
  const [locating, setLocating] = useState(false);
  const [locateError, setLocateError] = useState<LocateError>(null);

  // Latest values for callbacks that outlive a render (Leaflet listeners, timers, the lazy import).
  const latest = useRef({ contents, form, dispatch, pin, texts });
  latest.current = { contents, form, dispatch, pin, texts };
  /** The pin the map shows, as pinKey: a field value that differs came from elsewhere. */
  const shownKeyRef = useRef<string | null>(null);
  const timerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mountedRef = useRef(true);

  /** A move made by the user: write both fields, then run on_change once the moves stop. */
  const userMove = useCallback((position: LatLng) => {
    const rounded = roundLatLng(position);
    const { contents: c, form: f } = latest.current;
    shownKeyRef.current = pinKey(rounded);
    f.setValue(c.lat_field, rounded.lat);
    f.setValue(c.lng_field, rounded.lng);
    clearTimeout(timerRef.current);
    if (c.on_change && c.on_change.length > 0) {
      timerRef.current = setTimeout(() => {
        const { contents: now, dispatch: run } = latest.current;
        if (now.on_change && now.on_change.length > 0) void run(now.on_change);
      }, ON_CHANGE_DEBOUNCE_MS);
    }
  }, []);

  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
      clearTimeout(timerRef.current);
    };
  }, []);

  const tileUrl = contents.tile_url;
  const attribution = contents.attribution;
  const color = theme.palette.primary.main;
  useEffect(() => {
    let cancelled = false;
    let drawn: PinMap | null = null;
    setMapState('loading');
    import('./leaflet-map').then(
      ({ createPinMap }) => {
        const container = containerRef.current;
        if (cancelled || !container) return;
        const { contents: c, pin: current, texts: labels } = latest.current;
        drawn = createPinMap(container, {
          center: current ?? c.default_center,
          pin: current,
          zoom: c.zoom ?? DEFAULT_ZOOM,
          tileUrl,
          attribution,
          texts: labels,
          color,
          onUserMove: userMove,
        });
        mapRef.current = drawn;
        shownKeyRef.current = pinKey(current);
        setMapState('ready');
      },
      () => {
        if (!cancelled) setMapState('failed');
      },
    );
    return () => {
      cancelled = true;
      drawn?.destroy();
      mapRef.current = null;
    };
  }, [tileUrl, attribution, color, userMove]);

  // Fields changed by someone else: move the pin there and centre the map on it, without on_change.
  const key = pinKey(pin);
  useEffect(() => {
    const map = mapRef.current;
    if (mapState !== 'ready' || !map || key === shownKeyRef.current) return;
    shownKeyRef.current = key;
    const current = latest.current.pin;
    if (current) map.setPin(current, true);
    else map.clearPin();
  }, [key, mapState]);

  const { zoomIn, zoomOut, pin: pinText } = texts;
  useEffect(() => {
    if (mapState === 'ready') mapRef.current?.setTexts({ zoomIn, zoomOut, pin: pinText });
  }, [zoomIn, zoomOut, pinText, mapState]);

  const askPosition = useCallback(async () => {
    const config = latest.current.contents.locate;
    if (!config) return;
    setLocating(true);
    setLocateError(null);
    const outcome = await currentPosition({ storageKey: config.storage_key, throttleMs: config.throttle_ms });
    if (!mountedRef.current) return;
    setLocating(false);
    // locate.on_result (issue 15: the location permission event of SPEC §3) hears how the ask went.
    const result = outcome.kind === 'position' ? (outcome.reused ? 'reused' : 'granted') : outcome.kind;
    if (config.on_result && config.on_result.length > 0) {
      void latest.current.dispatch(config.on_result, { response: { success: true, data: { result } } });
    }
    if (outcome.kind !== 'position') {
      setLocateError(outcome.kind);
      return;
    }
    userMove(outcome.position);
    mapRef.current?.setPin(roundLatLng(outcome.position), true);
  }, [userMove]);

  // auto_when: ask once, when the rule turns true while no pin is set (never over a restored or chosen pin).
  const autoRule = locate?.auto_when;
  const autoOn = autoRule !== undefined && form.evaluate(autoRule);
  const autoAskedRef = useRef(false);
  const autoWasOnRef = useRef(false);
  useEffect(() => {
    const wasOn = autoWasOnRef.current;
    autoWasOnRef.current = autoOn;
    if (!autoOn || wasOn || autoAskedRef.current || latest.current.pin) return;
    autoAskedRef.current = true;
    void askPosition();
  }, [autoOn, askPosition]);

  const describedBy = [contents.hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography
        id={labelId}
        component="div"
        variant="subtitle1"
        sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
        color={error ? 'error' : 'text.primary'}
      >
        {contents.label}
        {contents.required && (
          <Box component="span" aria-hidden="true" title={t('widgets.map_pin.required')}>
            {' *'}
          </Box>
        )}
      </Typography>
      {contents.hint && (
        <Typography id={hintId} variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {contents.hint}
        </Typography>
      )}
      {locate && (
        <Button
          variant="outlined"
          onClick={() => void askPosition()}
          disabled={locating}
          aria-busy={locating}
          startIcon={
            locating ? <CircularProgress size={18} color="inherit" aria-hidden="true" /> : <MyLocationIcon />
          }
          sx={{ alignSelf: 'flex-start', minBlockSize: 44 }}
        >
          {locating ? locate.locating_label : locate.label}
        </Button>
      )}
      {locate && locateError && (
        <Alert severity="warning" role="alert">
          {locateError === 'denied' ? locate.denied_message : locate.unavailable_message}
        </Alert>
      )}
      <Box
        role="region"
        aria-labelledby={labelId}
        aria-describedby={describedBy || undefined}
        aria-invalid={error ? true : undefined}
        data-map-state={mapState}
        sx={{
          position: 'relative',
          blockSize: MAP_HEIGHT,
          borderRadius: 2,
          overflow: 'hidden',
          border: '1px solid',
          borderColor: error ? 'error.main' : 'divider',
        }}
      >
        <Box
          ref={containerRef}
          dir="ltr"
          data-testid="map-pin-map"
          sx={{
            position: 'absolute',
            inset: 0,
            // Without tiles this plain background is the map (SPEC: the pin still works offline).
            backgroundColor: '#EEF1EA',
            '&.leaflet-container': { backgroundColor: '#EEF1EA', fontFamily: 'inherit' },
            '& .map-pin-marker': { background: 'none', border: 'none' },
            '& .map-pin-marker:focus-visible': {
              outline: `3px solid ${theme.palette.primary.main}`,
              outlineOffset: 2,
              borderRadius: '50%',
            },
          }}
        />
        {mapState !== 'ready' && (
          <Typography
            role="status"
            variant="body2"
            color="text.secondary"
            sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', p: 2 }}
          >
            {mapState === 'loading' ? t('widgets.map_pin.loading') : t('widgets.map_pin.failed')}
          </Typography>
        )}
      </Box>
      <Typography variant="body2" aria-live="polite" data-testid="map-pin-coordinates">
        {pin ? (
          <>
            {contents.coordinates_label && <>{contents.coordinates_label} </>}
            <Box component="span" dir="ltr" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {formatLatLng(pin)}
            </Box>
          </>
        ) : (
          t('widgets.map_pin.not_set')
        )}
      </Typography>
      {error && (
        <FormHelperText id={errorId} error>
          {error}
        </FormHelperText>
      )}
    </Box>
  );
}
