/**
 * The image uploader inside a real Screen: the real registry (the widget's chunk loads lazily), the real
 * upload manager in the app's jotai store and the real API client, with the network replaced — fetch for the
 * screen payload, a fake XMLHttpRequest for the upload — and `createImageBitmap` replaced by a stand-in that
 * decodes PNG bytes for real and only gives their size (jsdom has no image decoder; see test-png.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider as JotaiProvider, createStore } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  ImageUploaderContents,
  PhotoTipsContents,
  PropertyImage,
  ScreenPayload,
} from '../../schemas/generated/types';
import { fixtureContents, goodFixtures } from '../../widgets/fixtures';
import { fakeCreateImageBitmap, pngFile } from '../../widgets/test-png';
import { i18n } from '../i18n/instance';
import type { AppStore } from '../state/atoms';
import { Screen } from './screen';
import { uploadManagerFor } from '../api/uploads';

const contents = fixtureContents<ImageUploaderContents>('image_uploader', 'empty');
const stored: PropertyImage = {
  ...fixtureContents<ImageUploaderContents>('image_uploader', 'mixed').images[0]!,
  image_id: '7d0c3a52-3f5e-4b61-9a4e-2f1d7c6b5a01',
};

function payload(images: PropertyImage[]): ScreenPayload {
  return {
    screen_id: 'images',
    schema_version: 1,
    widget_list: [{ id: 'room_photos', widget_type: 'image_uploader', contents: { ...contents, images } }],
  };
}

function answer(data: unknown): Response {
  return new Response(JSON.stringify({ success: true, data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

/** The upload requests the page made; each can be played forward (progress, answer). */
class FakeXhr extends EventTarget {
  static made: FakeXhr[] = [];
  readonly upload = new EventTarget();
  url = '';
  body: FormData | null = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  constructor() {
    super();
    FakeXhr.made.push(this);
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.dispatchEvent(new ProgressEvent('abort'));
  }
  getResponseHeader(name: string) {
    return name.toLowerCase() === 'content-type' ? 'application/json' : null;
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(new ProgressEvent('progress', { loaded, total, lengthComputable: true }));
  }
  respond(status: number, body: unknown) {
    this.upload.dispatchEvent(new ProgressEvent('load'));
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new ProgressEvent('load'));
  }
}

const fetchMock = vi.fn<typeof fetch>();
let store: AppStore;

function page() {
  return (
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <Screen screenId="images" />
      </I18nextProvider>
    </JotaiProvider>
  );
}

beforeEach(() => {
  FakeXhr.made = [];
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('createImageBitmap', fakeCreateImageBitmap);
  localStorage.setItem('isLoggedIn', 'true');
  store = createStore();
  void i18n.changeLanguage('en-GB');
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('image_uploader on a screen', () => {
  it('uploads a chosen photo with progress, refreshes the screen in place and shows it accepted', async () => {
    const user = userEvent.setup();
    fetchMock.mockResolvedValueOnce(answer(payload([])));
    render(page());
    const input = await screen.findByLabelText('Add photos');
    await user.upload(input, pngFile(1600, 1200, 'room.png'));

    await waitFor(() => expect(FakeXhr.made).toHaveLength(1));
    const xhr = FakeXhr.made[0]!;
    expect(xhr.url).toBe(contents.endpoint);
    expect(xhr.body!.get('category')).toBe('room');
    expect(xhr.body!.get('client_upload_id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((xhr.body!.get('file') as File).name).toBe('room.png');

    act(() => xhr.progress(600, 1000));
    const list = screen.getByRole('list', { name: 'Rooms' });
    expect(within(list).getByRole('progressbar', { name: 'Upload progress of Photo 1' })).toHaveAttribute(
      'aria-valuenow',
      '60',
    );

    const image = { ...stored, client_upload_id: String(xhr.body!.get('client_upload_id')) };
    let release: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    act(() => xhr.respond(201, { success: true, data: { image, completed: false, accepted_count: 1 } }));

    // on_change (refresh) fetches the screen again; meanwhile the widget stays as it is (no skeleton).
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('status', { name: 'Loading…' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Add photos')).toBe(input);
    expect(screen.getByText('1 of 3 photos')).toBeInTheDocument();
    act(() => release(answer(payload([image]))));
    await waitFor(() => expect(uploadManagerFor(store).items(contents.endpoint, 'room')).toEqual([]));
    expect(screen.getByLabelText('Add photos')).toBe(input);
    const tiles = within(screen.getByRole('list', { name: 'Rooms' })).getAllByRole('listitem');
    expect(tiles).toHaveLength(1);
    expect(within(tiles[0]!).getByText('Accepted')).toBeInTheDocument();
    // The server lists it now: the manager forgets its copy.
    await waitFor(() => expect(uploadManagerFor(store).items(contents.endpoint, 'room')).toEqual([]));
  });

  it('keeps uploading while the owner is on another page, and shows the result on return', async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementation(async () => answer(payload([])));
    const view = render(page());
    await user.upload(await screen.findByLabelText('Add photos'), pngFile(1600, 1200, 'room.png'));
    await waitFor(() => expect(FakeXhr.made).toHaveLength(1));
    view.unmount();

    const manager = uploadManagerFor(store);
    expect(manager.items(contents.endpoint, 'room')[0]).toMatchObject({
      status: 'uploading',
      is_in_background: true,
    });
    const xhr = FakeXhr.made[0]!;
    act(() => xhr.progress(1000, 1000));
    const image = { ...stored, client_upload_id: String(xhr.body!.get('client_upload_id')) };
    act(() => xhr.respond(201, { success: true, data: { image, completed: false, accepted_count: 1 } }));
    await waitFor(() =>
      expect(manager.items(contents.endpoint, 'room')[0]).toMatchObject({
        status: 'accepted',
        id: image.image_id,
      }),
    );

    render(page());
    const list = await screen.findByRole('list', { name: 'Rooms' });
    expect(within(list).getByRole('listitem', { name: 'Photo 1' })).toHaveTextContent('Accepted');
    // The widget watches the manager from an effect, which React runs after the paint that showed the list.
    await waitFor(() => expect(manager.items(contents.endpoint, 'room')[0]!.is_in_background).toBe(false));
  });

  it('shows a refused portrait without sending it', async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementation(async () => answer(payload([])));
    render(page());
    await user.upload(await screen.findByLabelText('Add photos'), pngFile(1200, 1600, 'portrait.png'));
    expect(await screen.findByText(contents.texts.vertical_message)).toBeInTheDocument();
    expect(FakeXhr.made).toHaveLength(0);
  });
});

describe('lazy validators', () => {
  it('checks image_uploader contents with the lazily loaded validator: bad contents draw the quiet fallback', async () => {
    const reports: unknown[] = [];
    const onReport = (event: Event) => reports.push((event as CustomEvent).detail);
    window.addEventListener('widget-report', onReport);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const bad = { ...contents, min_count: -1 };
    fetchMock.mockImplementation(async () =>
      answer({
        screen_id: 'images',
        schema_version: 1,
        widget_list: [
          { id: 'room_photos', widget_type: 'image_uploader', contents: bad },
          {
            id: 'tips',
            widget_type: 'photo_tips',
            contents: { title: 'Tips for good photos', tips: ['Landscape'] },
          },
        ],
      }),
    );
    render(page());
    // Two lazy widgets and their validators load first (slow under a full parallel test run).
    expect(
      await screen.findByRole('heading', { name: 'Tips for good photos' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(document.querySelector('[data-widget-fallback="room_photos"]')).not.toBeNull();
    expect(screen.queryByLabelText('Add photos')).not.toBeInTheDocument();
    // The report is sent by an effect after the draw (WidgetSlot): wait for it, not for the text alone.
    await waitFor(() =>
      expect(reports).toEqual([
        expect.objectContaining({
          code: 'INVALID_CONTENTS',
          widgetId: 'room_photos',
          path: '/widget_list/0/contents/min_count',
        }),
      ]),
    );
    window.removeEventListener('widget-report', onReport);
    vi.restoreAllMocks();
  });
});

describe('photo_tips samples', () => {
  it('every sample path of the fixtures is a file the client build serves', () => {
    const publicDir = join(__dirname, '..', 'public');
    const paths = goodFixtures('photo_tips').flatMap((f) =>
      ((f.envelope.contents as PhotoTipsContents).samples ?? []).map((s) => s.src),
    );
    const local = paths.filter((src) => src.startsWith('/propertyOnboard/'));
    expect(local.length).toBeGreaterThan(0);
    for (const src of local) {
      expect(existsSync(join(publicDir, src.slice('/propertyOnboard/'.length))), src).toBe(true);
    }
  });
});
