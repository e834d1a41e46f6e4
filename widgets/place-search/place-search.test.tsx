import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PlaceSearchContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import type { Load } from '../widget-props';
import { PlaceSearch, placesOf } from './place-search';

describe('place_search fixtures', () => {
  it.each(goodFixtures('place_search').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('place_search', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('place_search').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('place_search', env.contents).valid).toBe(false);
    },
  );
});

const city = fixtureContents<PlaceSearchContents>('place_search', 'city');

const gurugram = {
  id: '1270642',
  name: 'Gurugram',
  country: 'IN',
  country_name: 'India',
  state: 'Haryana',
  postal_code: null,
  address_line: null,
  lat: 28.4601,
  lng: 77.02635,
  population: 876969,
  label: 'Gurugram, Haryana, India',
};
const guwahati = {
  ...gurugram,
  id: '1271476',
  name: 'Guwahati',
  state: 'Assam',
  label: 'Guwahati, Assam, India',
};

const loadMock = () => vi.fn<Load>(async () => ({ places: [gurugram, guwahati] }));

describe('placesOf', () => {
  it('keeps the places that have a label and ignores anything else', () => {
    expect(placesOf({ places: [gurugram, { id: 2 }, 'x', null] })).toEqual([gurugram]);
    expect(placesOf({ place: gurugram })).toEqual([]);
    expect(placesOf(undefined)).toEqual([]);
  });
});

describe('PlaceSearch', () => {
  it('is a combobox named by its label that stores what is typed in its field', async () => {
    const record = createHarnessRecord();
    render(harness({ component: PlaceSearch, contents: city, record, load: loadMock() }));
    const input = screen.getByRole('combobox', { name: 'City or area' });
    expect(input).toHaveAttribute('placeholder', 'Start typing, e.g. Gurugram');
    await userEvent.type(input, 'G');
    expect(record.values.city_query).toBe('G');
  });

  it('searches once, after the debounce, when at least min_chars are typed, with q and the extra query', async () => {
    const load = loadMock();
    render(harness({ component: PlaceSearch, contents: city, load }));
    const input = screen.getByRole('combobox', { name: 'City or area' });
    await userEvent.type(input, 'G');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(load).not.toHaveBeenCalled();
    await userEvent.type(input, 'ur');
    expect(await screen.findByRole('option', { name: 'Gurugram, Haryana, India' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Guwahati, Assam, India' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
    const [endpoint, query, signal] = load.mock.calls[0]!;
    expect(endpoint).toBe('/hms_ms/api/v1/places/search');
    expect(query).toEqual({ country: 'IN', limit: 8, q: 'Gur' });
    expect(signal).toBeInstanceOf(AbortSignal);
  });

  it('aborts the previous search when the text changes while it runs', async () => {
    const signals: AbortSignal[] = [];
    const load = vi.fn<Load>(
      (_endpoint, query, signal) =>
        new Promise((resolve) => {
          signals.push(signal!);
          if (query.q === 'Gurg') resolve({ places: [gurugram] });
        }),
    );
    render(harness({ component: PlaceSearch, contents: { ...city, debounce_ms: 0 }, load }));
    const input = screen.getByRole('combobox', { name: 'City or area' });
    await userEvent.type(input, 'Gur');
    await waitFor(() => expect(load.mock.calls.at(-1)?.[1].q).toBe('Gur'));
    await userEvent.type(input, 'g');
    expect(await screen.findByRole('option', { name: 'Gurugram, Haryana, India' })).toBeInTheDocument();
    expect(load.mock.calls.at(-1)![1].q).toBe('Gurg');
    expect(signals.slice(0, -1).every((s) => s.aborted)).toBe(true);
    expect(signals.at(-1)!.aborted).toBe(false);
  });

  it('shows a loading indicator while the search runs', async () => {
    let finish: (value: unknown) => void = () => undefined;
    const load = vi.fn<Load>(() => new Promise((resolve) => (finish = resolve)));
    render(harness({ component: PlaceSearch, contents: city, load }));
    await userEvent.type(screen.getByRole('combobox', { name: 'City or area' }), 'Gur');
    expect(await screen.findByRole('progressbar', { name: 'Searching…' })).toBeInTheDocument();
    finish({ places: [gurugram] });
    expect(await screen.findByRole('option', { name: 'Gurugram, Haryana, India' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('choosing a suggestion puts its label in the field and dispatches on_select with the place', async () => {
    const record = createHarnessRecord();
    render(harness({ component: PlaceSearch, contents: city, record, load: loadMock() }));
    await userEvent.type(screen.getByRole('combobox', { name: 'City or area' }), 'Gur');
    await userEvent.click(await screen.findByRole('option', { name: 'Gurugram, Haryana, India' }));
    expect(record.actions).toEqual([city.on_select]);
    expect(record.scopes).toEqual([{ response: { success: true, data: gurugram } }]);
    expect(record.values).toMatchObject({
      city_query: 'Gurugram, Haryana, India',
      city: 'Gurugram',
      state: 'Haryana',
      latitude: 28.4601,
      longitude: 77.02635,
    });
    expect(screen.getByRole('combobox', { name: 'City or area' })).toHaveValue('Gurugram, Haryana, India');
  });

  it('can be used with the keyboard alone', async () => {
    const record = createHarnessRecord();
    render(harness({ component: PlaceSearch, contents: city, record, load: loadMock() }));
    await userEvent.type(screen.getByRole('combobox', { name: 'City or area' }), 'Gu');
    await screen.findByRole('option', { name: 'Guwahati, Assam, India' });
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(record.scopes).toEqual([{ response: { success: true, data: guwahati } }]);
  });

  it('free text alone dispatches nothing', async () => {
    const record = createHarnessRecord();
    render(harness({ component: PlaceSearch, contents: city, record, load: loadMock() }));
    await userEvent.type(screen.getByRole('combobox', { name: 'City or area' }), 'Somewhere new{Enter}');
    expect(record.values.city_query).toBe('Somewhere new');
    expect(record.actions).toEqual([]);
  });

  it('shows empty_text when the search found nothing', async () => {
    const load = vi.fn<Load>(async () => ({ places: [] }));
    render(harness({ component: PlaceSearch, contents: city, load }));
    await userEvent.type(screen.getByRole('combobox', { name: 'City or area' }), 'Xyzzy');
    expect(await screen.findByText(city.empty_text)).toBeInTheDocument();
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
  });

  it('shows error_text as an alert when the search failed', async () => {
    const load = vi.fn<Load>(async () => {
      throw new Error('Internal Server Error');
    });
    render(harness({ component: PlaceSearch, contents: city, load }));
    const input = screen.getByRole('combobox', { name: 'City or area' });
    await userEvent.type(input, 'Gur');
    expect(await screen.findByRole('alert')).toHaveTextContent(city.error_text!);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(city.error_text!);
  });

  it('without error_text shows the built-in text on failure', async () => {
    const load = vi.fn<Load>(async () => {
      throw new Error('offline');
    });
    const minimal = fixtureContents<PlaceSearchContents>('place_search', 'minimal');
    render(harness({ component: PlaceSearch, contents: minimal, load }));
    await userEvent.type(screen.getByRole('combobox', { name: 'Search a place' }), 'Par');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Search is not available right now. Please try again.',
    );
  });

  it('does not search for a value already in the field (a restored draft)', async () => {
    const load = loadMock();
    render(harness({ component: PlaceSearch, contents: city, load, values: { city_query: 'Gurugram' } }));
    expect(screen.getByRole('combobox', { name: 'City or area' })).toHaveValue('Gurugram');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(load).not.toHaveBeenCalled();
  });

  it('draws Arabic right to left', () => {
    render(
      harness({
        component: PlaceSearch,
        contents: fixtureContents<PlaceSearchContents>('place_search', 'arabic'),
        language: 'ar',
        load: loadMock(),
      }),
    );
    const input = screen.getByRole('combobox', { name: 'المدينة أو المنطقة' });
    expect(input.closest('[dir]')).toHaveAttribute('dir', 'rtl');
  });
});
