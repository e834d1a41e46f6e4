import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { ImageUploaderContents, PropertyImage } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, createHarnessUploads, harnessUploadItem } from '../test-harness';
import type { UploadItem } from '../widget-props';
import { ImageUploader } from './image-uploader';

/** The sample pictures of the client build, as stand-ins for the server's thumbnails (Storybook has no server). */
const SAMPLES = ['room', 'facade', 'bathroom', 'reception'].map(
  (name) => new URL(`../../renderer/public/samples/${name}.svg`, import.meta.url).href,
);

const fixture = (name: string) => fixtureContents<ImageUploaderContents>('image_uploader', name);

/** A fixture with its thumbnails pointed at the sample pictures. */
function withThumbnails(contents: ImageUploaderContents): ImageUploaderContents {
  const images: PropertyImage[] = contents.images.map((image, index) => ({
    ...image,
    thumbnail_url: SAMPLES[index % SAMPLES.length]!,
  }));
  return { ...contents, images };
}

/** What the upload manager holds in a story: photos in flight or refused, for the fixture's endpoint. */
type Scenario = 'none' | 'uploading' | 'mixed' | 'arabic';

function itemsFor(scenario: Scenario, contents: ImageUploaderContents): UploadItem[] {
  const at = (fields: Partial<UploadItem> & { file_name: string }) =>
    harnessUploadItem({
      endpoint: contents.endpoint,
      category: contents.category,
      room_category: contents.room_category ?? null,
      ...fields,
    });
  switch (scenario) {
    case 'none':
      return [];
    case 'uploading':
      return [
        at({ file_name: 'bed.jpg', status: 'uploading', uploaded_percentile: 35 }),
        at({ file_name: 'view.jpg', status: 'uploading', uploaded_percentile: 80 }),
        at({ file_name: 'desk.jpg', status: 'processing', uploaded_percentile: 100 }),
        at({ file_name: 'wardrobe.jpg', status: 'queued' }),
      ];
    case 'mixed':
      return [
        at({
          file_name: 'bed-again.jpg',
          status: 'duplicate',
          error: 'This image has already been uploaded. Please re-upload a new image',
          error_code: 'ONB_IMAGE_DUPLICATE',
        }),
        at({ file_name: 'hall.jpg', status: 'failed', error: 'Image Upload Failed. Please try again.' }),
        at({ file_name: 'portrait.jpg', status: 'invalid', error: contents.texts.vertical_message }),
        at({ file_name: 'tv.jpg', status: 'uploading', uploaded_percentile: 55 }),
      ];
    case 'arabic':
      return [
        at({ file_name: 'غرفة.jpg', status: 'uploading', uploaded_percentile: 60 }),
        at({ file_name: 'صغيرة.jpg', status: 'invalid', error: contents.texts.resolution_message }),
      ];
  }
}

interface Args {
  contents: ImageUploaderContents;
  scenario: Scenario;
}

/** The widget with a fresh in-memory upload manager holding the scenario's items. */
function Story({ contents, scenario }: Args) {
  const [uploads] = useState(() => createHarnessUploads({ items: itemsFor(scenario, contents) }));
  return (
    <HarnessedWidget
      id="room_photos"
      component={ImageUploader}
      contents={contents}
      uploads={uploads}
      onDispatch={action('dispatch')}
    />
  );
}

const meta = {
  title: 'Widgets/Image uploader',
  render: (args) => <Story key={args.scenario} {...args} />,
  args: { contents: fixture('empty'), scenario: 'none' },
  argTypes: { scenario: { control: 'select', options: ['none', 'uploading', 'mixed', 'arabic'] } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type StoryT = StoryObj<typeof meta>;

/** No photo yet: the count and the Add photos button. Choosing files runs the browser's pre-checks. */
export const Empty: StoryT = {};
/** Two uploads with their percentage, one awaiting the server's answer, one queued (at most 2 at once). */
export const UploadingWithProgress: StoryT = { args: { scenario: 'uploading' } };
/** Server images (accepted, not deletable any more, rejected, processing) and local duplicate, failed, refused. */
export const MixedStatuses: StoryT = {
  args: { contents: withThumbnails(fixture('mixed')), scenario: 'mixed' },
};
/** Upload and delete disabled for the property: no add button, the message instead. */
export const Disabled: StoryT = { args: { contents: withThumbnails(fixture('disabled')) } };
/** One room category of the lead: uploads carry its name, and its own uploads in flight show. */
export const RoomCategory: StoryT = {
  args: { contents: withThumbnails(fixture('room-category')), scenario: 'uploading' },
};
/** Room photos of categories renamed or removed since: they can be deleted, not added to. */
export const OtherRoomPhotos: StoryT = { args: { contents: withThumbnails(fixture('other-room-photos')) } };
export const LongText: StoryT = {
  args: { contents: withThumbnails(fixture('long-text')), scenario: 'mixed' },
};
export const ArabicRtl: StoryT = {
  args: { contents: withThumbnails(fixture('arabic')), scenario: 'arabic' },
  globals: { locale: 'ar' },
};
