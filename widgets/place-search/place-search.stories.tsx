import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { PlaceSearchContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import type { Load } from '../widget-props';
import { PlaceSearch } from './place-search';

/** Args of a place search story: its contents (a good fixture), the fake engine's state and a fake `load`. */
type Args = Omit<HarnessedWidgetProps<PlaceSearchContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<PlaceSearchContents>('place_search', name);

const place = (id: string, name: string, state: string, lat: number, lng: number, country = 'India') => ({
  id,
  name,
  country: country === 'India' ? 'IN' : 'AE',
  country_name: country,
  state,
  postal_code: null,
  address_line: null,
  lat,
  lng,
  population: null,
  label: `${name}, ${state}, ${country}`,
});

const PLACES = [
  place('1270642', 'Gurugram', 'Haryana', 28.4601, 77.02635),
  place('1271476', 'Guwahati', 'Assam', 26.1844, 91.7458),
  place('1270568', 'Guntur', 'Andhra Pradesh', 16.29974, 80.45729),
  place('1264527', 'Chennai', 'Tamil Nadu', 13.08784, 80.27847),
  place('292223', 'Dubai', 'Dubai', 25.07725, 55.30927, 'United Arab Emirates'),
  place('292968', 'Abu Dhabi', 'Abu Dhabi', 24.45118, 54.39696, 'United Arab Emirates'),
];

/** A stand-in for GET /hms_ms/api/v1/places/search: names starting with q, after 400 ms. */
const fakeSearch: Load = (_endpoint, query, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const q = String(query.q ?? '').toLowerCase();
      resolve({ places: PLACES.filter((p) => p.name.toLowerCase().startsWith(q)) });
    }, 400);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    });
  });

/** A search that always fails (the BFF is down). */
const failingSearch: Load = () =>
  new Promise((_resolve, reject) => setTimeout(() => reject(new Error('Internal Server Error')), 300));

const meta = {
  title: 'Widgets/Place search',
  render: (args) => <HarnessedWidget {...args} component={PlaceSearch} onDispatch={action('dispatch')} />,
  args: { id: 'city_search', contents: fixture('city'), load: fakeSearch },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Type 'Gu' to see suggestions; choosing one runs on_select (the Actions panel shows the place). */
export const CitySearch: Story = {};
/** A value already in the field (a restored draft): no search until the user types. */
export const WithValue: Story = { args: { values: { city_query: 'Gurugram, Haryana, India' } } };
/** Every search fails: error_text under the field. */
export const SearchFails: Story = { args: { load: failingSearch } };
/** No error_text: the built-in text on failure. */
export const Minimal: Story = { args: { contents: fixture('minimal'), load: failingSearch } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
