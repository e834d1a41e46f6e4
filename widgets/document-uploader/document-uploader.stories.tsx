import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { DocumentUploaderContents, KycDocument } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, createHarnessUploads, harnessUploadItem } from '../test-harness';
import type { Load, UploadItem } from '../widget-props';
import { DOCUMENT_CATEGORY, DocumentUploader } from './document-uploader';

const fixture = (name: string) => fixtureContents<DocumentUploaderContents>('document_uploader', name);

/** A card-like picture standing in for the server's thumbnail (Storybook has no server). */
const CARD = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="252" viewBox="0 0 400 252">
    <rect width="400" height="252" rx="16" fill="#e8eef7"/>
    <rect x="0" y="0" width="400" height="48" rx="16" fill="#3b5b92"/>
    <rect x="24" y="72" width="96" height="120" rx="6" fill="#b8c4d6"/>
    <rect x="140" y="80" width="200" height="14" rx="4" fill="#7d8ca3"/>
    <rect x="140" y="110" width="160" height="12" rx="4" fill="#9aa7ba"/>
    <rect x="140" y="136" width="180" height="12" rx="4" fill="#9aa7ba"/>
    <rect x="140" y="170" width="220" height="18" rx="4" fill="#3b5b92"/>
  </svg>`,
)}`;

/** A fixture with its document's thumbnail pointed at the stand-in picture. */
function withCard(contents: DocumentUploaderContents): DocumentUploaderContents {
  return contents.document
    ? { ...contents, document: { ...contents.document, thumbnail_url: CARD } }
    : contents;
}

/** What the upload manager holds in a story. */
type Scenario = 'none' | 'uploading' | 'sent' | 'failed' | 'refused';

function itemsFor(scenario: Scenario, contents: DocumentUploaderContents): UploadItem[] {
  const at = (fields: Partial<UploadItem>) =>
    harnessUploadItem({
      endpoint: contents.endpoint,
      category: DOCUMENT_CATEGORY,
      file_name: 'pan-card.jpg',
      fields: { id_type: 'pan' },
      ...fields,
    });
  switch (scenario) {
    case 'none':
      return [];
    case 'uploading':
      return [at({ status: 'uploading', uploaded_percentile: 42 })];
    case 'sent':
      return [at({ status: 'processing', uploaded_percentile: 100 })];
    case 'failed':
      return [at({ status: 'failed', error: 'Unable to connect. Please check your internet connection.' })];
    case 'refused':
      return [at({ status: 'invalid', error: contents.texts.resolution_message })];
  }
}

/** The server of a processing story: still reading twice, then recognised. */
function readingServer(contents: DocumentUploaderContents): Load {
  let polls = 0;
  const log = action('load');
  return async (endpoint) => {
    log(endpoint);
    polls += 1;
    const document: KycDocument = {
      ...contents.document!,
      thumbnail_url: CARD,
      status: polls < 3 ? 'processing' : 'recognised',
      detected_id_type: polls < 3 ? null : contents.document!.id_type,
    };
    return { document };
  };
}

interface Args {
  contents: DocumentUploaderContents;
  scenario: Scenario;
  /** The ID type chosen in the form (none: the picker waits for it). */
  idType: string | null;
}

function Story({ contents, scenario, idType }: Args) {
  const [uploads] = useState(() => createHarnessUploads({ items: itemsFor(scenario, contents) }));
  const [load] = useState(() => readingServer(contents));
  return (
    <HarnessedWidget
      id="id_document"
      component={DocumentUploader}
      contents={contents}
      values={idType ? { id_type: idType } : {}}
      uploads={uploads}
      load={load}
      onDispatch={action('dispatch')}
    />
  );
}

const meta = {
  title: 'Widgets/Document uploader',
  render: (args) => <Story key={`${args.scenario} ${args.idType}`} {...args} />,
  args: { contents: fixture('empty'), scenario: 'none', idType: 'pan' },
  argTypes: {
    scenario: { control: 'select', options: ['none', 'uploading', 'sent', 'failed', 'refused'] },
    idType: {
      control: 'select',
      options: [null, 'aadhaar', 'voter_id', 'driving_licence', 'passport', 'pan', 'vehicle_rc'],
    },
  },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type StoryT = StoryObj<typeof meta>;

/** No ID type chosen yet: the picker is disabled and says why. */
export const ChooseTypeFirst: StoryT = { args: { idType: null } };
/** An ID type chosen, no document: Upload a photo (the browser pre-checks what is chosen). */
export const Empty: StoryT = {};
/** Bytes going out: a progress bar with the percentage. */
export const UploadingWithProgress: StoryT = { args: { scenario: 'uploading' } };
/** Every byte sent, the server's answer awaited. */
export const Sent: StoryT = { args: { scenario: 'sent' } };
/** The upload did not get through: the reason and Retry. */
export const UploadFailed: StoryT = { args: { scenario: 'failed' } };
/** Refused in the browser before anything was sent. */
export const RefusedBeforeUpload: StoryT = { args: { scenario: 'refused' } };
/** The server is reading the document: polled every poll_interval_ms, recognised after the third read. */
export const Processing: StoryT = { args: { contents: withCard(fixture('processing')) } };
export const Recognised: StoryT = { args: { contents: withCard(fixture('recognised')) } };
/** 'Uploaded Image is of different IdType' (SPEC §5) and Upload another photo. */
export const Mismatch: StoryT = { args: { contents: withCard(fixture('mismatch')) } };
export const Unreadable: StoryT = {
  args: { contents: withCard(fixture('unreadable')), idType: 'passport' },
};
/** The owner chose another ID type after the photo: a new photo is needed. */
export const TypeChanged: StoryT = { args: { contents: withCard(fixture('recognised')), idType: 'aadhaar' } };
export const LongText: StoryT = { args: { contents: withCard(fixture('long-text')) } };
export const ArabicRtl: StoryT = {
  args: { contents: withCard(fixture('arabic')) },
  globals: { locale: 'ar' },
};
export const ArabicUploading: StoryT = {
  args: { contents: fixture('arabic'), scenario: 'uploading' },
  globals: { locale: 'ar' },
};
