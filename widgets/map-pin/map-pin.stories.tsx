import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { MapPinContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { MapPin } from './map-pin';

/** Args of a map pin story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<MapPinContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<MapPinContents>('map_pin', name);
const atLocation = fixture('at-location');
/** The location step without auto_when: the button asks, nothing asks by itself. */
const manual: MapPinContents = { ...atLocation, locate: { ...atLocation.locate!, auto_when: undefined } };

const meta = {
  title: 'Widgets/Map pin',
  render: (args) => <HarnessedWidget {...args} component={MapPin} onDispatch={action('dispatch')} />,
  args: { id: 'pin', contents: manual },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** No tiles (MAP_TILE_URL unset): a plain background; tapping, dragging, arrow keys and locate all work. */
export const OfflineNoPinYet: Story = {};
/** A pin already set (e.g. restored from a draft): the map opens centred on it. */
export const OfflinePinned: Story = { args: { values: { latitude: 28.459497, longitude: 77.026638 } } };
/** Submit found no pin: the required message under the map. */
export const OfflineWithError: Story = {
  args: { errors: { latitude: 'Please pin the location of your property' } },
};
/** With auto_when: answering 'at the property' asks for the position once (the browser prompts). */
export const AutoLocateAtProperty: Story = { args: { contents: atLocation, values: { at_location: 'yes' } } };
/** Tiles from OpenStreetMap with their attribution (needs the network). */
export const WithTiles: Story = { args: { contents: fixture('with-tiles') } };
/** The smallest contents: no hint, no locate button, no on_change. */
export const Minimal: Story = { args: { contents: fixture('minimal') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
