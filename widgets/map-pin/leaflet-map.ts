/**
 * The Leaflet part of the map_pin widget, imported lazily (`await import('./leaflet-map')`) so that Leaflet
 * and its stylesheet land in their own chunk, fetched only when a screen draws a map (CONVENTIONS: lazy-load
 * heavy widgets). The React part (map-pin.tsx) owns the form fields; this module only draws the map and the
 * pin and reports the user's moves.
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { LatLng } from './coordinates';

/** Screen pixels the pin moves per arrow key (five times as far with Shift). */
export const KEY_STEP_PX = 10;

/** Texts of the map's own controls, translated by the widget (widgets.map_pin.*). */
export interface PinMapTexts {
  zoomIn: string;
  zoomOut: string;
  /** Accessible name of the pin (a focusable button). */
  pin: string;
}

/** What {@link createPinMap} needs. */
export interface PinMapOptions {
  /** Where the view opens: the pin when set, else the default centre. */
  center: LatLng;
  /** The pin, or null while none is set (the pin then waits, faded, at `center`). */
  pin: LatLng | null;
  /** Starting zoom level (1–19). */
  zoom: number;
  /** Leaflet tile URL template; null adds no tile layer and so requests no image. */
  tileUrl: string | null;
  /** Attribution of the tiles (HTML); shown only with tiles. */
  attribution?: string;
  texts: PinMapTexts;
  /** Fill colour of the pin (CSS colour). */
  color: string;
  /** Called after the user moved the pin: a tap on the map, the end of a drag, or an arrow key. */
  onUserMove(position: LatLng): void;
}

/** A drawn map, driven by the widget. */
export interface PinMap {
  /**
   * Puts the pin at `position` (set by someone else: no onUserMove) and, with `recentre`, centres the view
   * on it.
   */
  setPin(position: LatLng, recentre: boolean): void;
  /** Shows that no pin is set (the pin stays where it is, faded). */
  clearPin(): void;
  /** Replaces the texts of the zoom buttons and the pin (language change). */
  setTexts(texts: PinMapTexts): void;
  /** Removes the map and its listeners. */
  destroy(): void;
}

const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
};

/** The pin drawn with inline SVG: no icon image to fetch (offline, and nothing for a bundler to rename). */
function pinIcon(color: string): L.DivIcon {
  const html =
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="44" viewBox="0 0 32 44" aria-hidden="true">` +
    `<path d="M16 1C7.7 1 1 7.6 1 15.8 1 27 16 43 16 43s15-16 15-27.2C31 7.6 24.3 1 16 1z" ` +
    `fill="${color}" stroke="#fff" stroke-width="2"/><circle cx="16" cy="16" r="6" fill="#fff"/></svg>`;
  return L.divIcon({ className: 'map-pin-marker', html, iconSize: [32, 44], iconAnchor: [16, 43] });
}

const toLatLng = (point: L.LatLng): LatLng => ({ lat: point.lat, lng: point.lng });

/**
 * Draws a Leaflet map into `container` (which must have a height): a draggable, keyboard-focusable pin
 * (role button; arrow keys move it {@link KEY_STEP_PX} px, Shift five times as far), tap-to-move, zoom buttons
 * with the given titles, and the tile layer with its attribution only when `tileUrl` is set (without it, or
 * when no tile can load, the container's own background shows; `data-tiles` says 'loaded' or 'failed'). The container gets `dir="ltr"` (Leaflet's layout assumes it) and
 * `data-center` ('lat,lng', 6 decimals) after each move of the view.
 */
export function createPinMap(container: HTMLElement, options: PinMapOptions): PinMap {
  container.setAttribute('dir', 'ltr');
  const map = L.map(container, {
    center: [options.center.lat, options.center.lng],
    zoom: options.zoom,
    zoomControl: false,
    attributionControl: options.tileUrl !== null,
  });
  let zoomControl = L.control.zoom({
    zoomInTitle: options.texts.zoomIn,
    zoomOutTitle: options.texts.zoomOut,
  });
  zoomControl.addTo(map);
  if (options.tileUrl !== null) {
    const tiles = L.tileLayer(options.tileUrl, { attribution: options.attribution ?? '', maxZoom: 19 }).addTo(
      map,
    );
    // Tiles that cannot load (offline, a blocked or failing tile server) leave the plain surface, without the
    // layer or its attribution (issue 12 item 13); once one tile has loaded, a later failure keeps the layer.
    let loaded = false;
    tiles.on('tileload', () => {
      loaded = true;
      container.dataset.tiles = 'loaded';
    });
    tiles.on('tileerror', () => {
      if (loaded || !map.hasLayer(tiles)) return;
      map.removeLayer(tiles);
      container.dataset.tiles = 'failed';
    });
  }

  const showCenter = () => {
    const center = map.getCenter();
    container.dataset.center = `${center.lat.toFixed(6)},${center.lng.toFixed(6)}`;
  };
  map.on('moveend', showCenter);
  showCenter();

  const marker = L.marker([options.center.lat, options.center.lng], {
    icon: pinIcon(options.color),
    draggable: true,
    keyboard: true,
    autoPanOnFocus: false,
  }).addTo(map);
  let pinned = false;
  const setPinned = (next: boolean) => {
    pinned = next;
    marker.setOpacity(next ? 1 : 0.55);
    marker.getElement()?.setAttribute('data-pinned', String(next));
  };
  if (options.pin) marker.setLatLng([options.pin.lat, options.pin.lng]);
  setPinned(options.pin !== null);

  const element = marker.getElement();
  element?.setAttribute('aria-label', options.texts.pin);

  const userMove = (position: L.LatLng) => {
    marker.setLatLng(position);
    setPinned(true);
    options.onUserMove(toLatLng(position));
  };

  map.on('click', (event: L.LeafletMouseEvent) => userMove(event.latlng));
  marker.on('dragend', () => userMove(marker.getLatLng()));

  const onKeyDown = (event: KeyboardEvent) => {
    const step = ARROWS[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    event.stopPropagation();
    const distance = KEY_STEP_PX * (event.shiftKey ? 5 : 1);
    const zoom = map.getZoom();
    const moved = map.unproject(
      map.project(marker.getLatLng(), zoom).add([step[0] * distance, step[1] * distance]),
      zoom,
    );
    userMove(moved);
    if (!map.getBounds().contains(moved)) map.panTo(moved);
  };
  element?.addEventListener('keydown', onKeyDown);

  // A map drawn while its container had no size (lazy load, a container shown later) needs to measure again.
  const resizeObserver =
    typeof ResizeObserver === 'function' ? new ResizeObserver(() => map.invalidateSize()) : null;
  resizeObserver?.observe(container);

  return {
    setPin(position, recentre) {
      marker.setLatLng([position.lat, position.lng]);
      setPinned(true);
      if (recentre) map.setView([position.lat, position.lng], map.getZoom(), { animate: false });
    },
    clearPin() {
      if (pinned) setPinned(false);
    },
    setTexts(texts) {
      zoomControl.remove();
      zoomControl = L.control.zoom({ zoomInTitle: texts.zoomIn, zoomOutTitle: texts.zoomOut });
      zoomControl.addTo(map);
      marker.getElement()?.setAttribute('aria-label', texts.pin);
    },
    destroy() {
      resizeObserver?.disconnect();
      element?.removeEventListener('keydown', onKeyDown);
      map.remove();
    },
  };
}
