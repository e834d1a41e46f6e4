import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ChangeEvent, ReactNode } from 'react';
import { Alert, Box, Button, LinearProgress, Paper, Typography } from '@mui/material';
import AddAPhotoOutlinedIcon from '@mui/icons-material/AddAPhotoOutlined';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import BadgeOutlinedIcon from '@mui/icons-material/BadgeOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import { useTranslation } from 'react-i18next';
import type { DocumentUploaderContents, IdType, KycDocument } from '../../schemas/generated/types';
import { precheckPhoto, type PrecheckReason } from '../photo-precheck';
import type { RequestFailure, UploadCheck, UploadItem, UploadStatus, WidgetProps } from '../widget-props';
import { usePreview, visuallyHidden } from '../shared-ui';
import { isRecord } from '../../schemas/app/is-record';

type Texts = DocumentUploaderContents['texts'];

/** The upload manager's group of this widget's uploads (with the endpoint); never sent (the fields are). */
export const DOCUMENT_CATEGORY = 'kyc_document';

/** ms between two reads of a processing document when the contents do not say. */
export const DEFAULT_POLL_INTERVAL_MS = 2000;

/** The ID types of SPEC §3 (IdType); a form value outside them counts as not chosen. */
export const ID_TYPES: readonly IdType[] = [
  'aadhaar',
  'voter_id',
  'driving_licence',
  'passport',
  'pan',
  'vehicle_rc',
];

const isIdType = (value: unknown): value is IdType =>
  typeof value === 'string' && (ID_TYPES as readonly string[]).includes(value);

/** The message of each pre-check refusal (a document may be upright: no `vertical` refusal). */
export function documentPrecheckMessage(texts: Texts, reason: PrecheckReason): string {
  switch (reason) {
    case 'format':
      return texts.format_message;
    case 'size':
      return texts.size_message;
    case 'resolution':
    case 'vertical':
      return texts.resolution_message;
    case 'unreadable':
      return texts.unreadable_message;
  }
}

/** The KycDocument of an answer `{ document }` (uploadKycDocument, getKycDocument), or undefined. */
export function documentOf(data: unknown): KycDocument | undefined {
  if (!isRecord(data) || !isRecord(data.document)) return undefined;
  const document = data.document;
  return typeof document.document_id === 'string' && typeof document.status === 'string'
    ? (document as unknown as KycDocument)
    : undefined;
}

/**
 * Which of two readings of the lead's document to show: another document wins when it is at least as recent
 * (`created_at`); for the same document a verdict never goes back to `processing` (a late poll answer or stale
 * screen contents).
 */
export function newerDocument(current: KycDocument | null, next: KycDocument | null): KycDocument | null {
  if (!next) return current;
  if (!current) return next;
  if (current.document_id === next.document_id) {
    return current.status !== 'processing' && next.status === 'processing' ? current : next;
  }
  const a = Date.parse(current.created_at);
  const b = Date.parse(next.created_at);
  return Number.isFinite(a) && Number.isFinite(b) && b < a ? current : next;
}

/** Upload states still on their way: the picker waits for them. */
const IN_FLIGHT: ReadonlySet<UploadStatus> = new Set(['checking', 'queued', 'uploading', 'processing']);

/** A picture of the document, or an icon when there is none or the browser cannot show it. */
function Picture({ src, alt }: { src: string | null; alt: string }) {
  const [broken, setBroken] = useState<string | null>(null);
  return (
    <Box
      sx={{
        flex: '0 0 auto',
        inlineSize: 112,
        aspectRatio: '4 / 3',
        borderRadius: 1,
        overflow: 'hidden',
        bgcolor: 'action.hover',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      {src && src !== broken ? (
        <Box
          component="img"
          src={src}
          alt={alt}
          onError={() => setBroken(src)}
          sx={{ inlineSize: '100%', blockSize: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : (
        <BadgeOutlinedIcon fontSize="large" color="disabled" aria-hidden />
      )}
    </Box>
  );
}

/** Lines kept in the live region. */
const ANNOUNCEMENT_LOG = 4;

/** What the widget shows, derived from the chosen ID type, the upload in hand and the document. */
type View =
  | { kind: 'empty' }
  | { kind: 'upload'; item: UploadItem }
  | { kind: 'refused'; item: UploadItem }
  | { kind: 'type_changed'; document: KycDocument }
  | { kind: 'document'; document: KycDocument };

/**
 * The `document_uploader` widget (issue 5; SPEC §3 KYC ID types, §5 'Uploaded Image is of different
 * IdType'): the photo of the owner's identity document.
 *
 * - Until `id_type_field` holds an IdType the picker is disabled with `texts.choose_type_first`.
 * - The picker (a button naming a hidden `<input type=file accept=…>` without `capture`, so that phones offer
 *   camera and gallery) pre-checks the photo in the browser ({@link precheckPhoto} with any orientation:
 *   type, size, resolution after the EXIF orientation) and hands it to the engine's upload manager with the
 *   multipart fields `id_type` (then `client_upload_id`, `file`): a progress bar with the percentage while
 *   bytes go out, Retry on a failed upload, the reason of a refusal.
 * - The answer (`{document}`, 202 processing) and `contents.document` give the document shown; while it is
 *   `processing` it is read again with `load(<endpoint>/<document_id>)` every `poll_interval_ms` ms (stopped
 *   on unmount, on a verdict and on a 4xx); the verdict shows: recognised (thumbnail and a check icon),
 *   mismatch / unreadable / failed (the server's `message` and "Upload another photo").
 * - When the chosen ID type is not the document's `id_type`, `texts.type_changed` says a new photo is needed.
 *
 * The widget writes nothing in the form; `on_change` runs when a verdict arrives while it is on screen. State
 * changes are announced in a polite live region. Uploads belong to the manager, so one carries on while the
 * owner is elsewhere and its answer is taken when the widget is drawn again.
 */
export function DocumentUploader({
  contents,
  form,
  dispatch,
  load,
  uploads,
}: WidgetProps<DocumentUploaderContents>) {
  const { t } = useTranslation();
  const { endpoint, texts, limits, on_change: onChange } = contents;
  const interval = contents.poll_interval_ms ?? DEFAULT_POLL_INTERVAL_MS;
  const baseId = useId();
  const headingId = `${baseId}-heading`;
  const pickId = `${baseId}-pick`;
  const hintId = `${baseId}-hint`;
  const statusId = `${baseId}-status`;
  const inputRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const chosenValue = form.value(contents.id_type_field);
  const chosen = isIdType(chosenValue) ? chosenValue : null;

  const [document, setDocument] = useState<KycDocument | null>(contents.document);
  const [pollError, setPollError] = useState<string | null>(null);
  const [announcements, setAnnouncements] = useState<readonly { id: number; text: string }[]>([]);
  const announceCounter = useRef(0);
  const announce = useCallback((text: string) => {
    announceCounter.current += 1;
    const lineId = announceCounter.current;
    setAnnouncements((log) => [...log.slice(-(ANNOUNCEMENT_LOG - 1)), { id: lineId, text }]);
  }, []);

  const getItems = useCallback(() => uploads.items(endpoint, DOCUMENT_CATEGORY), [uploads, endpoint]);
  const items = useSyncExternalStore(uploads.subscribe, getItems, getItems);
  useEffect(() => uploads.watch(endpoint, DOCUMENT_CATEGORY), [uploads, endpoint]);

  // Fresh screen contents (e.g. after a refresh) bring the server's view of the document.
  useEffect(() => {
    setDocument((current) => newerDocument(current, contents.document));
  }, [contents.document]);

  // An upload the server answered hands over its document; the manager's item has nothing more to tell.
  useEffect(() => {
    for (const item of items) {
      const answered = documentOf(item.response);
      if (!answered) continue;
      setDocument((current) => newerDocument(current, answered));
      setPollError(null);
      uploads.remove(item.id);
    }
  }, [items, uploads]);

  // Read a processing document again every `interval` ms until its verdict (or a refusal, or unmount).
  const processingId = document?.status === 'processing' ? document.document_id : null;
  useEffect(() => {
    if (processingId === null) return undefined;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = documentOf(
          await load(`${endpoint}/${encodeURIComponent(processingId)}`, {}, controller.signal),
        );
        if (controller.signal.aborted) return;
        if (next) {
          setDocument((current) => newerDocument(current, next));
          if (next.status !== 'processing') return;
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        const failure = (isRecord(error) ? error : {}) as Partial<RequestFailure>;
        const status = typeof failure.status === 'number' ? failure.status : 0;
        // The document is not there (or not this owner's): asking again cannot help.
        if (status >= 400 && status < 500 && status !== 429) {
          setPollError(
            typeof failure.message === 'string' && failure.message ? failure.message : texts.status.failed,
          );
          return;
        }
      }
      timer = setTimeout(() => void poll(), interval);
    };
    timer = setTimeout(() => void poll(), interval);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [processingId, endpoint, interval, load, texts.status.failed]);

  const item = useMemo(
    () => [...items].reverse().find((i) => documentOf(i.response) === undefined) ?? null,
    [items],
  );
  const uploading = item !== null && IN_FLIGHT.has(item.status);

  let view: View;
  if (item && uploading) view = { kind: 'upload', item };
  else if (item) view = { kind: 'refused', item };
  else if (document && chosen !== null && chosen !== document.id_type)
    view = { kind: 'type_changed', document };
  else if (document) view = { kind: 'document', document };
  else view = { kind: 'empty' };

  // Announce what changes while the widget is on screen: an upload refused or failed, a verdict.
  const statusLine = (() => {
    switch (view.kind) {
      case 'upload':
        return view.item.status === 'processing' ? texts.status.processing : texts.status.uploading;
      case 'refused':
        return view.item.status === 'failed'
          ? `${texts.status.failed}. ${view.item.error ?? ''}`.trim()
          : (view.item.error ?? texts.status.failed);
      case 'type_changed':
        return texts.type_changed;
      case 'document':
        return [texts.status[view.document.status], view.document.message].filter(Boolean).join('. ');
      case 'empty':
        return null;
    }
  })();
  const previousLine = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    const before = previousLine.current;
    previousLine.current = statusLine;
    if (before === undefined || before === statusLine || statusLine === null) return;
    announce(statusLine);
  }, [statusLine, announce]);

  // A verdict arriving while the widget is on screen runs on_change (e.g. a refresh of the task); the
  // document it was drawn with does not.
  const seenDocument = useRef<string | undefined>(undefined);
  useEffect(() => {
    const key = document ? `${document.document_id} ${document.status}` : '';
    const before = seenDocument.current;
    seenDocument.current = key;
    if (before === undefined || before === key) return;
    if (!document || document.status === 'processing' || !onChange?.length) return;
    void dispatch(onChange, { response: { success: true, data: { document } } });
  }, [document, onChange, dispatch]);

  // After a file is chosen the picker is disabled while it uploads: the keyboard focus goes to the progress.
  const focusPanel = useRef(false);
  useEffect(() => {
    if (focusPanel.current && statusRef.current) {
      focusPanel.current = false;
      statusRef.current.focus();
    }
  });

  const check = useCallback<UploadCheck>(
    async (file) => {
      const result = await precheckPhoto(file, limits, { orientation: 'any' });
      return result.ok ? null : documentPrecheckMessage(texts, result.reason);
    },
    [limits, texts],
  );

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again fires a change.
    event.target.value = '';
    if (!file || chosen === null) return;
    for (const old of items) if (!IN_FLIGHT.has(old.status)) uploads.remove(old.id);
    setPollError(null);
    focusPanel.current = true;
    uploads.add(endpoint, DOCUMENT_CATEGORY, [file], check, { id_type: chosen });
  };

  const preview = usePreview(view.kind === 'upload' ? view.item.file : null);
  const pictureAlt = t('widgets.document_uploader.thumbnail');
  const emphasisePick =
    view.kind === 'empty' ||
    view.kind === 'type_changed' ||
    view.kind === 'refused' ||
    (view.kind === 'document' &&
      view.document.status !== 'recognised' &&
      view.document.status !== 'processing');

  let panel: ReactNode = null;
  if (view.kind === 'upload') {
    const { status, uploaded_percentile: percent } = view.item;
    const determinate = status === 'uploading' || status === 'queued';
    panel = (
      <>
        <Picture src={preview} alt={pictureAlt} />
        <Box sx={{ flex: '1 1 auto', minInlineSize: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {statusLine}
          </Typography>
          {determinate ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <LinearProgress
                variant="determinate"
                value={percent}
                aria-label={t('widgets.document_uploader.progress')}
                sx={{ flexGrow: 1 }}
              />
              <Typography variant="caption" sx={{ minInlineSize: '3.5ch', textAlign: 'end' }}>
                {`${percent}%`}
              </Typography>
            </Box>
          ) : (
            <LinearProgress aria-label={t('widgets.document_uploader.progress')} />
          )}
        </Box>
      </>
    );
  } else if (view.kind === 'refused') {
    panel = (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, flex: '1 1 auto', minInlineSize: 0 }}>
        <Typography variant="body2" color="error" sx={{ display: 'flex', gap: 1, overflowWrap: 'anywhere' }}>
          <ErrorOutlineIcon fontSize="small" aria-hidden />
          <span>{view.item.error ?? texts.status.failed}</span>
        </Typography>
        {view.item.status === 'failed' && (
          <Box>
            <Button size="small" startIcon={<ReplayIcon />} onClick={() => uploads.retry(view.item.id)}>
              {texts.retry_label}
            </Button>
          </Box>
        )}
      </Box>
    );
  } else if (view.kind === 'type_changed') {
    panel = (
      <Alert severity="warning" sx={{ overflowWrap: 'anywhere' }}>
        {texts.type_changed}
      </Alert>
    );
  } else if (view.kind === 'document') {
    const { status, message } = view.document;
    const good = status === 'recognised';
    panel = (
      <>
        <Picture src={view.document.thumbnail_url} alt={pictureAlt} />
        <Box sx={{ flex: '1 1 auto', minInlineSize: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <Typography
            variant="body2"
            sx={{
              fontWeight: 600,
              display: 'flex',
              alignItems: 'center',
              gap: 0.5,
              color: good ? 'success.main' : status === 'processing' ? 'text.primary' : 'error.main',
            }}
          >
            {good && <CheckCircleIcon fontSize="small" aria-hidden />}
            {!good && status !== 'processing' && <ErrorOutlineIcon fontSize="small" aria-hidden />}
            <span>{texts.status[status]}</span>
          </Typography>
          {status === 'processing' && !pollError && (
            <LinearProgress aria-label={t('widgets.document_uploader.progress')} />
          )}
          {message && status !== 'recognised' && (
            <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
              {message}
            </Typography>
          )}
          {pollError && status === 'processing' && (
            <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
              {pollError}
            </Typography>
          )}
        </Box>
      </>
    );
  }

  return (
    <Box
      component="section"
      aria-labelledby={contents.title ? headingId : undefined}
      aria-label={contents.title ? undefined : t('widgets.document_uploader.region')}
      data-view={view.kind}
      data-status={view.kind === 'document' ? view.document.status : (item?.status ?? undefined)}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      {contents.title && (
        <Typography id={headingId} component="h2" variant="h6" sx={{ overflowWrap: 'anywhere' }}>
          {contents.title}
        </Typography>
      )}
      {contents.description && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {contents.description}
        </Typography>
      )}
      {view.kind === 'type_changed' && panel}
      {panel && view.kind !== 'type_changed' && (
        <Paper
          ref={statusRef}
          id={statusId}
          tabIndex={-1}
          variant="outlined"
          sx={{
            padding: 1.5,
            display: 'flex',
            gap: 1.5,
            alignItems: 'center',
            flexWrap: 'wrap',
            outline: 'none',
          }}
        >
          {panel}
        </Paper>
      )}
      <Box sx={{ position: 'relative', display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        <Box>
          <Button
            id={pickId}
            variant={emphasisePick ? 'contained' : 'outlined'}
            startIcon={<AddAPhotoOutlinedIcon />}
            onClick={() => inputRef.current?.click()}
            disabled={chosen === null || uploading}
            aria-describedby={chosen === null ? hintId : undefined}
            sx={{ minBlockSize: 44 }}
          >
            {document !== null ? texts.replace_label : texts.add_label}
          </Button>
        </Box>
        {chosen === null && (
          <Typography id={hintId} variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {texts.choose_type_first}
          </Typography>
        )}
        {/* The real input, named by the button (getByLabel finds it); the button is what users focus. */}
        <input
          ref={inputRef}
          type="file"
          accept={limits.mime_types.join(',')}
          aria-labelledby={pickId}
          tabIndex={-1}
          disabled={chosen === null || uploading}
          onChange={onFile}
          style={visuallyHidden}
        />
      </Box>
      <Box role="status" aria-live="polite" aria-relevant="additions text" sx={visuallyHidden}>
        {announcements.map((line) => (
          <div key={line.id}>{line.text}</div>
        ))}
      </Box>
    </Box>
  );
}
