import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { PhotoGalleryContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { PhotoGallery } from './photo-gallery';

/** Args of a photo_gallery story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<PhotoGalleryContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<PhotoGalleryContents>('photo_gallery', name);

const meta = {
  title: 'Widgets/PhotoGallery',
  render: (args) => <HarnessedWidget {...args} component={PhotoGallery} onDispatch={action('dispatch')} />,
  args: { id: 'photo_gallery', contents: fixture('three') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The image URLs point at the API; in Storybook without a server the pictures show their background. */
export const ThreePhotos: Story = {};
export const SinglePhoto: Story = { args: { contents: fixture('single') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
