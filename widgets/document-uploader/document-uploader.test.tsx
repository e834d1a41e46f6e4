import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DocumentUploaderContents, KycDocument } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, createHarnessUploads, harness, harnessUploadItem } from '../test-harness';
import { fakeCreateImageBitmap, pngBytes, pngFile } from '../test-png';
import type { Load } from '../widget-props';
import { DOCUMENT_CATEGORY, DocumentUploader, newerDocument } from './document-uploader';

describe('document_uploader fixtures', () => {
  it('has good and error fixtures', () => {
    expect(goodFixtures('document_uploader').length).toBeGreaterThan(0);
    expect(errorFixtures('document_uploader').length).toBeGreaterThan(0);
  });
  it.each(goodFixtures('document_uploader').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('document_uploader', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('document_uploader').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('document_uploader', env.contents).valid).toBe(false);
    },
  );
});

const fixture = (name: string) => fixtureContents<DocumentUploaderContents>('document_uploader', name);
const empty = fixture('empty');
const processing = fixture('processing');
const recognised = fixture('recognised');
const mismatch = fixture('mismatch');
const arabic = fixture('arabic');
const { endpoint, texts } = empty;
const DOCUMENT_ID = processing.document!.document_id;

const doc = (fields: Partial<KycDocument> = {}): KycDocument => ({ ...processing.document!, ...fields });

const pickButton = (name = 'Upload a photo') => screen.getByRole('button', { name });
/** The element showing `text` on screen (not the live region's copy of it). */
function shown(text: string | RegExp): HTMLElement {
  const found = screen.getAllByText(text).filter((el) => !el.closest('[role="status"]'));
  expect(found).toHaveLength(1);
  return found[0]!;
}
const liveRegion = () => screen.getByRole('status');

beforeEach(() => {
  // jsdom cannot decode images: this stand-in decodes the PNG bytes for real and gives their size only.
  vi.stubGlobal('createImageBitmap', fakeCreateImageBitmap);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('newerDocument', () => {
  it('takes another document unless it is older, and never goes back to processing', () => {
    const first = doc({ status: 'recognised' });
    const later = doc({ document_id: 'later', created_at: '2025-05-02T09:30:00.000Z' });
    const earlier = doc({ document_id: 'earlier', created_at: '2025-04-30T09:30:00.000Z' });
    expect(newerDocument(null, first)).toBe(first);
    expect(newerDocument(first, null)).toBe(first);
    expect(newerDocument(first, later)).toBe(later);
    expect(newerDocument(first, earlier)).toBe(first);
    expect(newerDocument(first, doc({ status: 'processing' }))).toBe(first);
    const again = doc({ status: 'mismatch' });
    expect(newerDocument(doc(), again)).toBe(again);
  });
});

describe('DocumentUploader', () => {
  it('asks for the ID type first: the picker is disabled and says why', () => {
    render(harness({ component: DocumentUploader, contents: empty }));
    expect(screen.getByRole('region', { name: 'Photo of your ID' })).toBeInTheDocument();
    const button = pickButton();
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(texts.choose_type_first);
    expect(screen.getByLabelText('Upload a photo')).toBeDisabled();
  });

  it('offers a single-file picker of the accepted types that does not force the camera', async () => {
    const user = userEvent.setup();
    render(harness({ component: DocumentUploader, contents: empty, values: { id_type: 'pan' } }));
    const input = screen.getByLabelText('Upload a photo');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png');
    expect(input).not.toHaveAttribute('capture');
    expect(input).not.toHaveAttribute('multiple');
    expect(screen.queryByText(texts.choose_type_first)).not.toBeInTheDocument();
    const click = vi.spyOn(input, 'click');
    await user.tab();
    expect(pickButton()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('pre-checks an upright photo, uploads it with the chosen id_type and shows the progress', async () => {
    const user = userEvent.setup();
    const uploads = createHarnessUploads();
    render(harness({ component: DocumentUploader, contents: empty, uploads, values: { id_type: 'pan' } }));
    await user.upload(screen.getByLabelText('Upload a photo'), pngFile(800, 1200, 'pan.png'));
    await act(() => uploads.settled());
    expect(uploads.calls.added).toHaveLength(1);
    expect(uploads.calls.added[0]).toMatchObject({
      endpoint,
      category: DOCUMENT_CATEGORY,
      fields: { id_type: 'pan' },
    });
    const [item] = uploads.items(endpoint, DOCUMENT_CATEGORY);
    expect(item).toMatchObject({ status: 'queued', fields: { id_type: 'pan' } });
    act(() => uploads.update(item!.id, { status: 'uploading', uploaded_percentile: 45 }));
    const bar = screen.getByRole('progressbar', { name: 'Upload progress of the photo' });
    expect(bar).toHaveAttribute('aria-valuenow', '45');
    expect(screen.getByText('45%')).toBeInTheDocument();
    expect(shown(texts.status.uploading)).toBeInTheDocument();
    // One upload at a time; the keyboard focus went to the progress.
    expect(pickButton()).toBeDisabled();
    expect(document.activeElement).toContainElement(bar);
    act(() => uploads.update(item!.id, { status: 'processing', uploaded_percentile: 100 }));
    expect(shown(texts.status.processing)).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).not.toHaveAttribute('aria-valuenow');
  });

  it('refuses a wrong type, a too large, a too small and an unreadable file with their messages', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const uploads = createHarnessUploads();
    render(harness({ component: DocumentUploader, contents: empty, uploads, values: { id_type: 'pan' } }));
    const bytes = pngBytes(800, 600);
    const cases: [File, string][] = [
      [new File([bytes], 'card.gif', { type: 'image/gif' }), texts.format_message],
      [new File([new Uint8Array(10485760)], 'huge.jpg', { type: 'image/jpeg' }), texts.size_message],
      [pngFile(599, 800, 'small.png'), texts.resolution_message],
      [new File([bytes.subarray(0, 100)], 'cut.png', { type: 'image/png' }), texts.unreadable_message],
    ];
    for (const [file, message] of cases) {
      await user.upload(screen.getByLabelText('Upload a photo'), file);
      await act(() => uploads.settled());
      expect(shown(message)).toBeInTheDocument();
      expect(pickButton()).toBeEnabled();
    }
    // Each new choice forgets the refused one before it.
    expect(uploads.items(endpoint, DOCUMENT_CATEGORY)).toHaveLength(1);
    expect(uploads.calls.removed).toHaveLength(3);
  });

  it('offers Retry on a failed upload', async () => {
    const user = userEvent.setup();
    const failed = harnessUploadItem({
      endpoint,
      category: DOCUMENT_CATEGORY,
      file_name: 'pan.jpg',
      fields: { id_type: 'pan' },
      status: 'failed',
      error: 'Unable to connect. Please check your internet connection.',
    });
    const uploads = createHarnessUploads({ items: [failed] });
    render(harness({ component: DocumentUploader, contents: empty, uploads, values: { id_type: 'pan' } }));
    expect(shown('Unable to connect. Please check your internet connection.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(uploads.calls.retried).toEqual([failed.id]);
  });

  it('takes the upload’s answer, polls the document while processing and shows the verdict', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers: KycDocument[] = [doc(), doc({ status: 'recognised', detected_id_type: 'pan' })];
    const load = vi.fn<Load>(async () => ({ document: answers.shift() }));
    const uploading = harnessUploadItem({
      endpoint,
      category: DOCUMENT_CATEGORY,
      file_name: 'pan.jpg',
      fields: { id_type: 'pan' },
      status: 'uploading',
      uploaded_percentile: 90,
    });
    const uploads = createHarnessUploads({ items: [uploading] });
    const record = createHarnessRecord();
    render(
      harness({
        component: DocumentUploader,
        contents: empty,
        uploads,
        load,
        record,
        values: { id_type: 'pan' },
      }),
    );
    act(() =>
      uploads.update(uploading.id, {
        status: 'processing',
        uploaded_percentile: 100,
        response: { document: doc() },
      }),
    );
    expect(uploads.calls.removed).toEqual([uploading.id]);
    expect(shown(texts.status.processing)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Photo of your document' })).toHaveAttribute(
      'src',
      processing.document!.thumbnail_url,
    );
    expect(load).not.toHaveBeenCalled();

    await act(async () => vi.advanceTimersByTime(2000));
    expect(load).toHaveBeenCalledTimes(1);
    expect(load.mock.calls[0]![0]).toBe(`${endpoint}/${DOCUMENT_ID}`);
    expect(shown(texts.status.processing)).toBeInTheDocument();

    await act(async () => vi.advanceTimersByTime(2000));
    expect(load).toHaveBeenCalledTimes(2);
    expect(shown(texts.status.recognised)).toBeInTheDocument();
    expect(screen.getByTestId('CheckCircleIcon')).toBeInTheDocument();
    expect(liveRegion()).toHaveTextContent(texts.status.recognised);
    expect(screen.getByRole('button', { name: 'Upload another photo' })).toBeEnabled();
    expect(record.actions).toEqual([[{ type: 'refresh' }]]);
    expect(record.scopes[0]).toEqual({
      response: { success: true, data: { document: doc({ status: 'recognised', detected_id_type: 'pan' }) } },
    });

    await act(async () => vi.advanceTimersByTime(10000));
    expect(load).toHaveBeenCalledTimes(2);
    // The form is the owner's: the widget wrote nothing in it.
    expect(record.values).toEqual({ id_type: 'pan' });
  });

  it('shows a mismatch with the server’s message and asks for another photo', () => {
    render(harness({ component: DocumentUploader, contents: mismatch, values: { id_type: 'pan' } }));
    expect(shown(texts.status.mismatch)).toBeInTheDocument();
    expect(shown('Uploaded Image is of different IdType')).toBeInTheDocument();
    const again = screen.getByRole('button', { name: 'Upload another photo' });
    expect(again).toBeEnabled();
    expect(again.className).toMatch(/MuiButton-contained/);
    expect(screen.getByLabelText('Upload another photo')).toHaveAttribute('type', 'file');
  });

  it('says a new photo is needed when the ID type changes away from the document’s', async () => {
    const user = userEvent.setup();
    function TypeAndWidget(props: Parameters<typeof DocumentUploader>[0]) {
      return (
        <>
          <button type="button" onClick={() => props.form.setValue('id_type', 'aadhaar')}>
            Aadhaar
          </button>
          <DocumentUploader {...props} />
        </>
      );
    }
    render(harness({ component: TypeAndWidget, contents: recognised, values: { id_type: 'pan' } }));
    expect(shown(texts.status.recognised)).toBeInTheDocument();
    expect(screen.queryByText(texts.type_changed)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Aadhaar' }));
    expect(shown(texts.type_changed)).toBeInTheDocument();
    expect(screen.queryByText(texts.status.recognised)).not.toBeInTheDocument();
    expect(liveRegion()).toHaveTextContent(texts.type_changed);
    expect(screen.getByRole('button', { name: 'Upload another photo' })).toBeEnabled();
  });

  it('stops polling when it unmounts', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const signals: AbortSignal[] = [];
    const load = vi.fn<Load>(
      (_endpoint, _query, signal) =>
        new Promise((_resolve, reject) => {
          signals.push(signal!);
          signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const view = render(
      harness({ component: DocumentUploader, contents: processing, load, values: { id_type: 'pan' } }),
    );
    await act(async () => vi.advanceTimersByTime(2000));
    expect(load).toHaveBeenCalledTimes(1);
    view.unmount();
    expect(signals[0]!.aborted).toBe(true);
    await act(async () => vi.advanceTimersByTime(10000));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps polling through a network failure but stops on a refusal', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const failures = [
      Object.assign(new Error('Unable to connect'), { status: 0 }),
      Object.assign(new Error('Lead not found'), { status: 404, code: 'ONB_LEAD_NOT_FOUND' }),
    ];
    const load = vi.fn<Load>(async () => {
      throw failures.shift();
    });
    render(
      harness({
        component: DocumentUploader,
        contents: { ...processing, poll_interval_ms: 1000 },
        load,
        values: { id_type: 'pan' },
      }),
    );
    await act(async () => vi.advanceTimersByTime(1000));
    await act(async () => vi.advanceTimersByTime(1000));
    expect(load).toHaveBeenCalledTimes(2);
    expect(shown('Lead not found')).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(5000));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('takes an answer that arrived while it was away', () => {
    const answered = harnessUploadItem({
      endpoint,
      category: DOCUMENT_CATEGORY,
      file_name: 'pan.jpg',
      fields: { id_type: 'pan' },
      status: 'processing',
      uploaded_percentile: 100,
      response: { document: doc({ status: 'unreadable', message: 'Too blurred' }) },
    });
    const uploads = createHarnessUploads({ items: [answered] });
    render(harness({ component: DocumentUploader, contents: empty, uploads, values: { id_type: 'pan' } }));
    expect(shown(texts.status.unreadable)).toBeInTheDocument();
    expect(shown('Too blurred')).toBeInTheDocument();
    expect(uploads.items(endpoint, DOCUMENT_CATEGORY)).toEqual([]);
  });

  it('draws right to left in Arabic', () => {
    render(
      harness({ component: DocumentUploader, contents: arabic, language: 'ar', values: { id_type: 'pan' } }),
    );
    const region = screen.getByRole('region', { name: 'صورة هويتك' });
    expect(region.closest('[dir]')).toHaveAttribute('dir', 'rtl');
    expect(within(region).getByRole('img', { name: 'صورة وثيقتك' })).toBeInTheDocument();
    expect(shown('الصورة المرفوعة لنوع هوية مختلف')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'رفع صورة أخرى' })).toBeEnabled();
  });
});
