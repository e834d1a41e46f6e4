import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ImageUploaderContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, createHarnessUploads, harness, harnessUploadItem } from '../test-harness';
import { ImageUploader, countText } from './image-uploader';
import { fakeCreateImageBitmap, pngBytes, pngFile } from '../test-png';

describe('image_uploader fixtures', () => {
  it('has good and error fixtures', () => {
    expect(goodFixtures('image_uploader').length).toBeGreaterThan(0);
    expect(errorFixtures('image_uploader').length).toBeGreaterThan(0);
  });
  it.each(goodFixtures('image_uploader').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('image_uploader', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('image_uploader').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('image_uploader', env.contents).valid).toBe(false);
    },
  );
});

const empty = fixtureContents<ImageUploaderContents>('image_uploader', 'empty');
const mixed = fixtureContents<ImageUploaderContents>('image_uploader', 'mixed');
const disabled = fixtureContents<ImageUploaderContents>('image_uploader', 'disabled');
const arabic = fixtureContents<ImageUploaderContents>('image_uploader', 'arabic');
const roomCategory = fixtureContents<ImageUploaderContents>('image_uploader', 'room-category');
const otherRooms = fixtureContents<ImageUploaderContents>('image_uploader', 'other-room-photos');
const { endpoint } = empty;

const item = (fields: Parameters<typeof harnessUploadItem>[0] extends infer F ? Partial<F> : never) =>
  harnessUploadItem({ endpoint, category: 'room', file_name: 'room.jpg', ...fields });

const photoList = () => screen.getByRole('list', { name: 'Rooms' });
const tile = (name: string) => within(photoList()).getByRole('listitem', { name });

beforeEach(() => {
  // jsdom cannot decode images: this stand-in decodes the PNG bytes for real and gives their size only.
  vi.stubGlobal('createImageBitmap', fakeCreateImageBitmap);
});

afterEach(() => vi.unstubAllGlobals());

describe('countText', () => {
  it('fills {{accepted}} and {{min}}', () => {
    expect(countText('{{accepted}} of {{min}} photos', 2, 3)).toBe('2 of 3 photos');
  });
});

describe('ImageUploader', () => {
  it('shows the heading, the count, each server image with its status, reason and allowed actions', () => {
    render(harness({ component: ImageUploader, contents: mixed }));
    expect(screen.getByRole('heading', { level: 2, name: 'Rooms' })).toBeInTheDocument();
    expect(screen.getByText('2 of 3 photos')).toBeInTheDocument();
    expect(within(photoList()).getAllByRole('listitem')).toHaveLength(4);

    const first = tile('Photo 1');
    expect(within(first).getByText('Accepted')).toBeInTheDocument();
    expect(within(first).getByRole('img', { name: 'Photo 1' })).toHaveAttribute(
      'src',
      mixed.images[0]!.thumbnail_url,
    );
    expect(within(first).getByRole('button', { name: 'Delete Photo 1' })).toBeInTheDocument();
    // can_delete false: no longer recent (SPEC §5).
    expect(within(tile('Photo 2')).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    const rejected = tile('Photo 3');
    expect(within(rejected).getByText('Rejected')).toBeInTheDocument();
    expect(within(rejected).getByText(mixed.images[2]!.message!)).toBeInTheDocument();
    expect(within(tile('Photo 4')).getByText('Processing')).toBeInTheDocument();
    expect(within(tile('Photo 4')).getByRole('progressbar')).not.toHaveAttribute('aria-valuenow');
  });

  it('shows an icon instead of a thumbnail the browser cannot load', () => {
    render(harness({ component: ImageUploader, contents: mixed }));
    const picture = within(tile('Photo 1')).getByRole('img', { name: 'Photo 1' });
    fireEvent.error(picture);
    expect(within(tile('Photo 1')).queryByRole('img')).not.toBeInTheDocument();
    expect(within(tile('Photo 1')).getByTestId('ImageOutlinedIcon')).toBeInTheDocument();
    expect(within(tile('Photo 2')).getByRole('img', { name: 'Photo 2' })).toBeInTheDocument();
  });

  it('has an Add photos button and a real multiple file input labelled by it, opened from the keyboard', async () => {
    const user = userEvent.setup();
    render(harness({ component: ImageUploader, contents: empty }));
    const input = screen.getByLabelText('Add photos');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png');
    expect(input).toHaveAttribute('multiple');
    const click = vi.spyOn(input, 'click');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Add photos' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(click).toHaveBeenCalledTimes(1);
    expect(screen.getByText('0 of 3 photos')).toBeInTheDocument();
  });

  it('pre-checks each chosen file and shows the reason of each refusal (SPEC §5)', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const uploads = createHarnessUploads();
    render(harness({ component: ImageUploader, contents: empty, uploads }));
    const bytes = pngBytes(1200, 1000);
    const chosen = [
      pngFile(1200, 1000, 'good.png'),
      pngFile(1000, 1400, 'portrait.png'),
      pngFile(999, 800, 'small.png'),
      new File([bytes], 'anim.gif', { type: 'image/gif' }),
      new File([new Uint8Array(10485760)], 'huge.jpg', { type: 'image/jpeg' }),
      new File([bytes.subarray(0, 200)], 'cut.png', { type: 'image/png' }),
    ];
    await user.upload(screen.getByLabelText('Add photos'), chosen);
    await act(() => uploads.settled());

    expect(uploads.calls.added).toHaveLength(1);
    expect(uploads.calls.added[0]!.files.map((f) => f.name)).toEqual(chosen.map((f) => f.name));
    const texts = empty.texts;
    const expected: [string, string | null][] = [
      ['Photo 1', null],
      ['Photo 2', texts.vertical_message],
      ['Photo 3', texts.resolution_message],
      ['Photo 4', texts.format_message],
      ['Photo 5', texts.size_message],
      ['Photo 6', texts.unreadable_message],
    ];
    for (const [name, message] of expected) {
      const photo = tile(name);
      if (message === null) {
        expect(within(photo).getByText('Uploading')).toBeInTheDocument();
        expect(within(photo).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
      } else {
        expect(within(photo).getByText('Rejected')).toBeInTheDocument();
        expect(within(photo).getByText(message)).toBeInTheDocument();
        // Nothing was stored: the owner removes it from the list.
        expect(within(photo).getByRole('button', { name: `Delete ${name}` })).toBeInTheDocument();
      }
    }
    expect(uploads.items(endpoint, 'room').map((i) => i.status)).toEqual([
      'queued',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
    ]);
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(`Photo 2: Rejected. ${texts.vertical_message}`),
    );
  });

  it('shows the percentage of an upload as it goes (aria-valuenow)', () => {
    const uploading = item({ status: 'uploading', uploaded_percentile: 42 });
    const uploads = createHarnessUploads({ items: [uploading] });
    render(harness({ component: ImageUploader, contents: empty, uploads }));
    const bar = within(tile('Photo 1')).getByRole('progressbar', { name: 'Upload progress of Photo 1' });
    expect(bar).toHaveAttribute('aria-valuenow', '42');
    expect(within(tile('Photo 1')).getByText('42%')).toBeInTheDocument();
    act(() => uploads.update(uploading.id, { uploaded_percentile: 87 }));
    expect(bar).toHaveAttribute('aria-valuenow', '87');
    expect(within(tile('Photo 1')).getByText('87%')).toBeInTheDocument();
    act(() => uploads.update(uploading.id, { status: 'processing', uploaded_percentile: 100 }));
    expect(within(tile('Photo 1')).getByText('Processing')).toBeInTheDocument();
    expect(within(tile('Photo 1')).queryByText('100%')).not.toBeInTheDocument();
  });

  it('announces a duplicate with the server’s message, and removes it locally on Delete', async () => {
    const user = userEvent.setup();
    const uploading = item({ status: 'uploading', uploaded_percentile: 90 });
    const uploads = createHarnessUploads({ items: [uploading] });
    render(harness({ component: ImageUploader, contents: empty, uploads }));
    const message = 'This image has already been uploaded. Please re-upload a new image';
    act(() =>
      uploads.update(uploading.id, {
        status: 'duplicate',
        error: message,
        error_code: 'ONB_IMAGE_DUPLICATE',
      }),
    );
    expect(within(tile('Photo 1')).getByText('Duplicate')).toBeInTheDocument();
    expect(within(tile('Photo 1')).getByText(message)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(`Photo 1: Duplicate. ${message}`);
    await user.click(within(tile('Photo 1')).getByRole('button', { name: 'Delete Photo 1' }));
    expect(uploads.calls.removed).toEqual([uploading.id]);
    expect(uploads.calls.deleted).toEqual([]);
    expect(screen.queryByRole('list', { name: 'Rooms' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add photos' })).toHaveFocus();
  });

  it('offers Retry on a failed upload and asks the manager to retry that item', async () => {
    const user = userEvent.setup();
    const failed = item({ status: 'failed', error: 'Image Upload Failed. Please try again.' });
    const uploads = createHarnessUploads({ items: [failed] });
    render(harness({ component: ImageUploader, contents: empty, uploads }));
    expect(within(tile('Photo 1')).getByText('Failed')).toBeInTheDocument();
    expect(within(tile('Photo 1')).getByText('Image Upload Failed. Please try again.')).toBeInTheDocument();
    await user.click(within(tile('Photo 1')).getByRole('button', { name: 'Retry Photo 1' }));
    expect(uploads.calls.retried).toEqual([failed.id]);
    expect(within(tile('Photo 1')).getByText('Uploading')).toBeInTheDocument();
    expect(within(tile('Photo 1')).queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
  });

  it('runs on_change once when an upload the widget shows is stored, and announces it', () => {
    const record = createHarnessRecord();
    const a = item({ status: 'processing', uploaded_percentile: 100 });
    const b = item({ status: 'uploading', uploaded_percentile: 10, file_name: 'b.jpg' });
    const uploads = createHarnessUploads({ items: [a, b] });
    render(harness({ component: ImageUploader, contents: empty, uploads, record }));
    expect(record.actions).toEqual([]);
    act(() => uploads.update(b.id, { uploaded_percentile: 50 }));
    expect(record.actions).toEqual([]);
    act(() =>
      uploads.update(a.id, {
        status: 'accepted',
        id: 'img-1',
        image: { ...mixed.images[0]!, image_id: 'img-1' },
      }),
    );
    expect(record.actions).toEqual([empty.on_change]);
    expect(screen.getByRole('status')).toHaveTextContent('Photo 1: Accepted');
    expect(screen.getByText('1 of 3 photos')).toBeInTheDocument();
    act(() => uploads.update(b.id, { status: 'failed', error: 'Unable to connect' }));
    expect(record.actions).toHaveLength(1);
  });

  it('does not run on_change for uploads that finished while it was away', () => {
    const record = createHarnessRecord();
    const done = item({ status: 'accepted', image: { ...mixed.images[0]!, image_id: 'img-9' }, id: 'img-9' });
    const uploads = createHarnessUploads({ items: [done] });
    render(harness({ component: ImageUploader, contents: empty, uploads, record }));
    expect(within(tile('Photo 1')).getByText('Accepted')).toBeInTheDocument();
    expect(record.actions).toEqual([]);
  });

  it('forgets a manager item once the server lists its image, without a second tile', async () => {
    const stored = { ...mixed.images[0]!, category: 'room' };
    const done = item({
      status: 'accepted',
      image: stored,
      id: stored.image_id,
      client_upload_id: stored.client_upload_id,
    });
    const uploads = createHarnessUploads({ items: [done] });
    render(harness({ component: ImageUploader, contents: { ...empty, images: [stored] }, uploads }));
    expect(within(photoList()).getAllByRole('listitem')).toHaveLength(1);
    await waitFor(() => expect(uploads.calls.removed).toEqual([stored.image_id]));
  });

  it('deletes a server image, hides it, runs on_change and moves focus to Add photos', async () => {
    const user = userEvent.setup();
    const record = createHarnessRecord();
    const uploads = createHarnessUploads();
    render(harness({ component: ImageUploader, contents: mixed, uploads, record }));
    await user.click(within(tile('Photo 3')).getByRole('button', { name: 'Delete Photo 3' }));
    expect(uploads.calls.deleted).toEqual([{ endpoint, imageId: mixed.images[2]!.image_id }]);
    await waitFor(() => expect(within(photoList()).getAllByRole('listitem')).toHaveLength(3));
    expect(record.actions).toEqual([mixed.on_change]);
    expect(screen.getByRole('button', { name: 'Add photos' })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('Photo 3 deleted');
  });

  it('keeps the image and shows why when the delete is refused', async () => {
    const user = userEvent.setup();
    const record = createHarnessRecord();
    const notRecent = 'You can only delete images that were recently uploaded';
    const uploads = createHarnessUploads({ deleteImage: () => Promise.reject(new Error(notRecent)) });
    render(harness({ component: ImageUploader, contents: mixed, uploads, record }));
    await user.click(within(tile('Photo 1')).getByRole('button', { name: 'Delete Photo 1' }));
    expect(await within(tile('Photo 1')).findByText(notRecent)).toBeInTheDocument();
    expect(within(photoList()).getAllByRole('listitem')).toHaveLength(4);
    expect(record.actions).toEqual([]);
    expect(within(tile('Photo 1')).getByRole('button', { name: 'Delete Photo 1' })).toBeEnabled();
  });

  it('without upload_enabled: no add button or input, the disabled message, no delete of server images', () => {
    render(harness({ component: ImageUploader, contents: disabled }));
    expect(screen.queryByRole('button', { name: 'Add photos' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Add photos')).not.toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('You are not allowed to upload images');
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });

  it('watches its endpoint and category while mounted', () => {
    const uploads = createHarnessUploads();
    const watch = vi.spyOn(uploads, 'watch');
    const view = render(harness({ component: ImageUploader, contents: empty, uploads }));
    expect(watch).toHaveBeenCalledWith(endpoint, 'room', null);
    view.unmount();
  });

  it('with a room_category: uploads carry it, and only that room category’s uploads are shown', async () => {
    const user = userEvent.setup();
    const other = item({ room_category: 'Family suite', status: 'uploading', uploaded_percentile: 10 });
    const mine = item({ room_category: 'Deluxe double', status: 'uploading', uploaded_percentile: 30 });
    const plain = item({ status: 'uploading', uploaded_percentile: 50 });
    const uploads = createHarnessUploads({ items: [other, mine, plain] });
    const watch = vi.spyOn(uploads, 'watch');
    render(harness({ component: ImageUploader, contents: roomCategory, uploads }));
    expect(watch).toHaveBeenCalledWith(endpoint, 'room', 'Deluxe double');
    const list = screen.getByRole('list', { name: 'Room photos: Deluxe double' });
    // The four server images, then the one upload of this room category.
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(within(list).getByRole('progressbar', { name: 'Upload progress of Photo 5' })).toHaveAttribute(
      'aria-valuenow',
      '30',
    );
    await user.upload(screen.getByLabelText('Add photos'), pngFile(1600, 1200, 'deluxe.png'));
    expect(uploads.calls.added).toEqual([
      expect.objectContaining({ endpoint, category: 'room', room_category: 'Deluxe double' }),
    ]);
    expect(uploads.items(endpoint, 'room', 'Deluxe double')).toHaveLength(2);
    expect(uploads.items(endpoint, 'room')).toEqual([plain]);
  });

  it('with add_enabled false: its photos can be deleted, nothing added, and no disabled message', async () => {
    const user = userEvent.setup();
    const uploads = createHarnessUploads();
    render(harness({ component: ImageUploader, contents: otherRooms, uploads }));
    expect(screen.getByRole('heading', { level: 2, name: 'Other room photos' })).toBeInTheDocument();
    expect(screen.getByText('2 photos added')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add photos' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Add photos')).not.toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Other room photos' });
    await user.click(within(list).getByRole('button', { name: 'Delete Photo 1' }));
    expect(uploads.calls.deleted).toEqual([{ endpoint, imageId: otherRooms.images[0]!.image_id }]);
  });

  it('reads right to left in Arabic with the Arabic texts', () => {
    render(harness({ component: ImageUploader, contents: arabic, language: 'ar' }));
    const list = screen.getByRole('list', { name: 'الغرف' });
    expect(list.closest('[dir]')).toHaveAttribute('dir', 'rtl');
    expect(within(list).getByRole('listitem', { name: 'الصورة 2' })).toHaveTextContent('مرفوضة');
    expect(screen.getByLabelText('إضافة صور')).toHaveAttribute('type', 'file');
    expect(screen.getByText('1 من 3 صور')).toBeInTheDocument();
  });
});

describe('a refused photo shows the owner’s own picture (issue 12 item 12)', () => {
  beforeEach(() => {
    let n = 0;
    Object.assign(URL, {
      createObjectURL: vi.fn(() => `blob:own-${++n}`),
      revokeObjectURL: vi.fn(),
    });
  });
  afterEach(() => {
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it('a photo refused by the pre-check shows its own file, not a grey placeholder', () => {
    const refused = item({ status: 'invalid', error: 'The photo is too small' });
    const uploads = createHarnessUploads({ items: [refused] });
    render(harness({ component: ImageUploader, contents: empty, uploads }));
    expect(within(tile('Photo 1')).getByRole('img', { name: 'Photo 1' })).toHaveAttribute(
      'src',
      'blob:own-1',
    );
    expect(within(tile('Photo 1')).queryByTestId('ImageOutlinedIcon')).not.toBeInTheDocument();
  });

  it('a photo the server rejected, uploaded in this session, shows the owner’s file rather than the thumbnail', () => {
    const rejected = mixed.images.find((image) => image.status === 'rejected')!;
    const mine = item({
      client_upload_id: rejected.client_upload_id,
      status: 'rejected',
      error: rejected.message,
    });
    const uploads = createHarnessUploads({ items: [mine] });
    render(harness({ component: ImageUploader, contents: mixed, uploads }));
    const index = mixed.images.indexOf(rejected) + 1;
    expect(within(tile(`Photo ${index}`)).getByRole('img', { name: `Photo ${index}` })).toHaveAttribute(
      'src',
      'blob:own-1',
    );
    expect(within(photoList()).getAllByRole('listitem')).toHaveLength(mixed.images.length);
  });
});
