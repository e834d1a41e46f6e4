import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MapPinContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import type { WidgetProps } from '../widget-props';
import { MapPin } from './map-pin';

describe('map_pin fixtures', () => {
  it.each(goodFixtures('map_pin').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('map_pin', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('map_pin').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('map_pin', env.contents).valid).toBe(false);
    },
  );
});

const atLocation = fixtureContents<MapPinContents>('map_pin', 'at-location');
const withTiles = fixtureContents<MapPinContents>('map_pin', 'with-tiles');
/** The fixture without auto_when, so that only the button asks. */
const manualLocate: MapPinContents = {
  ...atLocation,
  locate: { ...atLocation.locate!, auto_when: undefined },
};

type GetCurrentPosition = Geolocation['getCurrentPosition'];
const getCurrentPosition = vi.fn<GetCurrentPosition>();

function answerWith(lat: number, lng: number, timestamp = Date.now()) {
  getCurrentPosition.mockImplementation((success) =>
    success({
      coords: { latitude: lat, longitude: lng, accuracy: 10 } as GeolocationCoordinates,
      timestamp,
    } as GeolocationPosition),
  );
}

function failWith(code: number) {
  getCurrentPosition.mockImplementation((_success, failure) =>
    failure?.({ code, message: 'no', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 }),
  );
}

/** The map, once Leaflet has been loaded and drawn. */
async function drawnMap() {
  const region = await screen.findByRole('region', { name: /exact location|Where is your property/ });
  await waitFor(() => expect(region).toHaveAttribute('data-map-state', 'ready'));
  return region;
}

const pinButton = () => screen.getByRole('button', { name: 'Location pin. Move it with the arrow keys' });

beforeEach(() => {
  localStorage.clear();
  getCurrentPosition.mockReset();
  // jsdom has no geolocation; Leaflet reads navigator's own getters, so the real object is extended.
  Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
});
afterEach(() => {
  Reflect.deleteProperty(navigator, 'geolocation');
  vi.useRealTimers();
});

describe('MapPin', () => {
  it('draws the map without tiles (no image requested), a named region, and the zoom buttons translated', async () => {
    const { container } = render(harness({ component: MapPin, contents: manualLocate }));
    const region = await drawnMap();
    expect(region).toHaveAccessibleDescription('Tap the map or drag the pin to your entrance.');
    expect(screen.getByRole('button', { name: 'Zoom in' })).toHaveAttribute('title', 'Zoom in');
    expect(screen.getByRole('button', { name: 'Zoom out' })).toBeInTheDocument();
    expect(container.querySelectorAll('img')).toHaveLength(0);
    expect(container.querySelector('.leaflet-tile-pane')?.children).toHaveLength(0);
    expect(container.querySelector('.leaflet-control-attribution')).toBeNull();
    expect(screen.getByTestId('map-pin-map')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByTestId('map-pin-map')).toHaveAttribute('data-center', '28.399174,77.038765');
    expect(screen.getByTestId('map-pin-coordinates')).toHaveTextContent('No pin yet');
    expect(pinButton()).toHaveAttribute('data-pinned', 'false');
  });

  it('with tile_url adds the tile layer and its attribution', async () => {
    const { container } = render(harness({ component: MapPin, contents: withTiles }));
    await drawnMap();
    expect(container.querySelector('.leaflet-tile-pane .leaflet-layer')).not.toBeNull();
    expect(container.querySelector('.leaflet-control-attribution')).toHaveTextContent('OpenStreetMap');
  });

  it('falls back to the plain surface, without attribution, when the tiles cannot load (issue 12 item 13)', async () => {
    const { container } = render(harness({ component: MapPin, contents: withTiles }));
    await drawnMap();
    const tile = await waitFor(() => {
      const img = container.querySelector('img.leaflet-tile');
      expect(img).not.toBeNull();
      return img!;
    });
    fireEvent.error(tile);
    await waitFor(() => expect(container.querySelector('.leaflet-tile-pane .leaflet-layer')).toBeNull());
    expect(container.querySelector('.leaflet-control-attribution')).not.toHaveTextContent('OpenStreetMap');
    expect(container.querySelector('[data-tiles]')).toHaveAttribute('data-tiles', 'failed');
  });

  it('shows the coordinates of a set pin with 6 decimals and its caption', async () => {
    render(
      harness({
        component: MapPin,
        contents: manualLocate,
        values: { latitude: 12.9715987, longitude: 77.5945627 },
      }),
    );
    await drawnMap();
    expect(screen.getByTestId('map-pin-coordinates')).toHaveTextContent('Pinned at 12.971599, 77.594563');
    expect(screen.getByTestId('map-pin-map')).toHaveAttribute('data-center', '12.971599,77.594563');
    expect(pinButton()).toHaveAttribute('data-pinned', 'true');
  });

  it('moves the pin with the arrow keys: sets both fields and runs on_change once, 400 ms after the last move', async () => {
    const record = createHarnessRecord();
    render(harness({ component: MapPin, contents: manualLocate, record }));
    await drawnMap();
    vi.useFakeTimers();
    const pin = pinButton();
    fireEvent.keyDown(pin, { key: 'ArrowRight' });
    const afterOne = record.values.longitude as number;
    expect(afterOne).toBeGreaterThan(77.0387653);
    expect(record.values.latitude).toBeCloseTo(28.399174, 6);
    fireEvent.keyDown(pin, { key: 'ArrowUp' });
    expect(record.values.latitude as number).toBeGreaterThan(28.399174);
    expect(Number.isInteger((record.values.latitude as number) * 1e6)).toBe(true);
    act(() => vi.advanceTimersByTime(399));
    expect(record.actions).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    expect(record.actions).toEqual([manualLocate.on_change]);
    expect(screen.getByTestId('map-pin-coordinates')).toHaveTextContent(
      `Pinned at ${(record.values.latitude as number).toFixed(6)}, ${afterOne.toFixed(6)}`,
    );
  });

  it('a tap on the map moves the pin there', async () => {
    const record = createHarnessRecord();
    render(harness({ component: MapPin, contents: manualLocate, record }));
    await drawnMap();
    fireEvent.click(screen.getByTestId('map-pin-map'), { clientX: 20, clientY: -10 });
    await waitFor(() => expect(record.values.longitude).toBeDefined());
    expect(record.values.longitude as number).toBeGreaterThan(77.0387653);
    expect(record.values.latitude as number).toBeGreaterThan(28.3991744);
    expect(pinButton()).toHaveAttribute('data-pinned', 'true');
    await waitFor(() => expect(record.actions).toHaveLength(1));
  });

  it('locate: sets the pin where the browser says and stores the position with when it was read', async () => {
    answerWith(19.0760904, 72.8774213, 1_700_000_000_000);
    const record = createHarnessRecord();
    render(harness({ component: MapPin, contents: manualLocate, record }));
    await drawnMap();
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }));
    await waitFor(() => expect(record.values.latitude).toBe(19.07609));
    expect(record.values.longitude).toBe(72.877421);
    expect(getCurrentPosition).toHaveBeenCalledWith(expect.any(Function), expect.any(Function), {
      enableHighAccuracy: true,
      timeout: 10000,
      maximumAge: 300000,
    });
    expect(JSON.parse(localStorage.getItem('last_location')!)).toEqual({
      lat: 19.0760904,
      lng: 72.8774213,
      read_at: 1_700_000_000_000,
    });
    expect(screen.getByTestId('map-pin-map')).toHaveAttribute('data-center', '19.076090,72.877421');
    await waitFor(() => expect(record.actions).toEqual([manualLocate.on_change]));
  });

  it('locate: shows the locating label with a progress indicator while the browser answers', async () => {
    let answer: PositionCallback | undefined;
    getCurrentPosition.mockImplementation((success) => (answer = success));
    const record = createHarnessRecord();
    render(harness({ component: MapPin, contents: manualLocate, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }));
    const busy = screen.getByRole('button', { name: 'Finding your location…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy.querySelector('.MuiCircularProgress-root')).not.toBeNull();
    act(() =>
      answer!({
        coords: { latitude: 1, longitude: 2 } as GeolocationCoordinates,
        timestamp: Date.now(),
      } as GeolocationPosition),
    );
    expect(await screen.findByRole('button', { name: 'Use my current location' })).toBeEnabled();
    expect(record.values).toMatchObject({ latitude: 1, longitude: 2 });
  });

  it('locate: reuses a position read less than throttle_ms ago without asking the browser', async () => {
    localStorage.setItem(
      'last_location',
      JSON.stringify({ lat: 13.0826802, lng: 80.2707184, read_at: Date.now() - 60_000 }),
    );
    const record = createHarnessRecord();
    render(harness({ component: MapPin, contents: manualLocate, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }));
    await waitFor(() => expect(record.values.latitude).toBe(13.08268));
    expect(record.values.longitude).toBe(80.270718);
    expect(getCurrentPosition).not.toHaveBeenCalled();
  });

  it('locate: asks the browser again once the stored position is older than throttle_ms', async () => {
    localStorage.setItem(
      'last_location',
      JSON.stringify({ lat: 13.0826802, lng: 80.2707184, read_at: Date.now() - 300_001 }),
    );
    answerWith(19.0760904, 72.8774213);
    const record = createHarnessRecord();
    render(harness({ component: MapPin, contents: manualLocate, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }));
    await waitFor(() => expect(record.values.latitude).toBe(19.07609));
    expect(getCurrentPosition).toHaveBeenCalledTimes(1);
  });

  it('locate: a refusal shows denied_message as an alert and sets nothing', async () => {
    failWith(1);
    const record = createHarnessRecord();
    render(harness({ component: MapPin, contents: manualLocate, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(manualLocate.locate!.denied_message);
    expect(record.values.latitude).toBeUndefined();
    expect(localStorage.getItem('last_location')).toBeNull();
  });

  it('locate: a timeout shows unavailable_message', async () => {
    failWith(3);
    render(harness({ component: MapPin, contents: manualLocate }));
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(manualLocate.locate!.unavailable_message);
  });

  it.each([
    ['granted', () => answerWith(19.0760904, 72.8774213)],
    ['denied', () => failWith(1)],
    ['unavailable', () => failWith(3)],
  ] as const)('locate.on_result: runs after the ask with response.data.result %s', async (result, answer) => {
    answer();
    const onResult = [
      {
        type: 'set_value' as const,
        field: 'location_permission',
        value: { var: 'response.data.result' },
        analytics: { event: 'location_permission', properties: { result: { var: 'response.data.result' } } },
      },
    ];
    const record = createHarnessRecord();
    const contents = { ...manualLocate, locate: { ...manualLocate.locate!, on_result: onResult } };
    render(harness({ component: MapPin, contents, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }));
    await waitFor(() => expect(record.actions).toContainEqual(onResult));
    const at = record.actions.findIndex(
      (a) => a === onResult || JSON.stringify(a) === JSON.stringify(onResult),
    );
    expect(record.scopes[at]).toEqual({ response: { success: true, data: { result } } });
    expect(record.actions.filter((a) => JSON.stringify(a) === JSON.stringify(onResult))).toHaveLength(1);
  });

  it('locate.on_result: says reused for a position read less than throttle_ms ago', async () => {
    localStorage.setItem(
      'last_location',
      JSON.stringify({ lat: 13.08, lng: 80.27, read_at: Date.now() - 60_000 }),
    );
    const onResult = [{ type: 'close_popup' as const }];
    const record = createHarnessRecord();
    const contents = { ...manualLocate, locate: { ...manualLocate.locate!, on_result: onResult } };
    render(harness({ component: MapPin, contents, record }));
    await userEvent.click(screen.getByRole('button', { name: 'Use my current location' }));
    await waitFor(() =>
      expect(record.scopes).toContainEqual({ response: { success: true, data: { result: 'reused' } } }),
    );
  });

  it('auto_when: asks once when the rule turns true while no pin is set', async () => {
    answerWith(19.0760904, 72.8774213);
    const record = createHarnessRecord();
    function WithAnswer(props: WidgetProps<MapPinContents>) {
      return (
        <>
          <button type="button" onClick={() => props.form.setValue('at_location', 'yes')}>
            I am at the property
          </button>
          <button type="button" onClick={() => props.form.setValue('at_location', 'no')}>
            I am elsewhere
          </button>
          <MapPin {...props} />
        </>
      );
    }
    render(harness({ component: WithAnswer, contents: atLocation, record }));
    await drawnMap();
    expect(getCurrentPosition).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'I am at the property' }));
    await waitFor(() => expect(record.values.latitude).toBe(19.07609));
    await userEvent.click(screen.getByRole('button', { name: 'I am elsewhere' }));
    await userEvent.click(screen.getByRole('button', { name: 'I am at the property' }));
    expect(getCurrentPosition).toHaveBeenCalledTimes(1);
  });

  it('auto_when: does not ask over a pin that is already set', async () => {
    answerWith(19.0760904, 72.8774213);
    render(
      harness({
        component: MapPin,
        contents: atLocation,
        values: { at_location: 'yes', latitude: 12.5, longitude: 77.5 },
      }),
    );
    await drawnMap();
    expect(getCurrentPosition).not.toHaveBeenCalled();
  });

  it('recentres on the pin when the fields change from elsewhere, without running on_change', async () => {
    const record = createHarnessRecord();
    function WithSearch(props: WidgetProps<MapPinContents>) {
      return (
        <>
          <button
            type="button"
            onClick={() => {
              props.form.setValue('latitude', 12.9715987);
              props.form.setValue('longitude', 77.5945627);
            }}
          >
            Bengaluru
          </button>
          <MapPin {...props} />
        </>
      );
    }
    render(harness({ component: WithSearch, contents: manualLocate, record }));
    await drawnMap();
    await userEvent.click(screen.getByRole('button', { name: 'Bengaluru' }));
    await waitFor(() =>
      expect(screen.getByTestId('map-pin-map')).toHaveAttribute('data-center', '12.971599,77.594563'),
    );
    expect(screen.getByTestId('map-pin-coordinates')).toHaveTextContent('12.971599, 77.594563');
    expect(pinButton()).toHaveAttribute('data-pinned', 'true');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(record.actions).toHaveLength(0);
  });

  it('shows the form error of the pin under the map and marks the region invalid', async () => {
    render(
      harness({
        component: MapPin,
        contents: manualLocate,
        errors: { latitude: 'Please pin the location of your property' },
      }),
    );
    const region = await drawnMap();
    expect(region).toHaveAttribute('aria-invalid', 'true');
    expect(region).toHaveAccessibleDescription(
      'Tap the map or drag the pin to your entrance. Please pin the location of your property',
    );
  });

  it('draws Arabic right to left around a left-to-right map, with translated zoom buttons', async () => {
    render(
      harness({
        component: MapPin,
        contents: fixtureContents<MapPinContents>('map_pin', 'arabic'),
        language: 'ar',
      }),
    );
    const region = await screen.findByRole('region', { name: /حدّد الموقع الدقيق/ });
    await waitFor(() => expect(region).toHaveAttribute('data-map-state', 'ready'));
    expect(region.closest('[dir="rtl"]')).not.toBeNull();
    expect(screen.getByTestId('map-pin-map')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByRole('button', { name: 'تكبير' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'استخدم موقعي الحالي' })).toBeInTheDocument();
  });
});
