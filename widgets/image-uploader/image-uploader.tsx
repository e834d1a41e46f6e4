import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ChangeEvent } from 'react';
import { Box, Button, Chip, LinearProgress, Paper, Typography } from '@mui/material';
import type { ChipProps } from '@mui/material';
import AddPhotoAlternateOutlinedIcon from '@mui/icons-material/AddPhotoAlternateOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import { useTranslation } from 'react-i18next';
import type { ImageUploaderContents, PropertyImage } from '../../schemas/generated/types';
import type { UploadCheck, UploadItem, UploadStatus, WidgetProps } from '../widget-props';
import { precheckPhoto, type PrecheckReason } from '../photo-precheck';
import { usePreview, visuallyHidden } from '../shared-ui';

type Texts = ImageUploaderContents['texts'];
type StatusKey = keyof Texts['status'];

/** The chip text of each state: checking and queued photos read as uploading, refused ones as rejected. */
const STATUS_TEXT: Record<UploadStatus, StatusKey> = {
  checking: 'uploading',
  queued: 'uploading',
  uploading: 'uploading',
  processing: 'processing',
  accepted: 'accepted',
  rejected: 'rejected',
  invalid: 'rejected',
  duplicate: 'duplicate',
  failed: 'failed',
};

const STATUS_COLOR: Record<UploadStatus, ChipProps['color']> = {
  checking: 'default',
  queued: 'default',
  uploading: 'info',
  processing: 'info',
  accepted: 'success',
  rejected: 'error',
  invalid: 'error',
  duplicate: 'warning',
  failed: 'error',
};

/** States after which nothing more happens to a photo (announced to screen readers). */
const SETTLED: ReadonlySet<UploadStatus> = new Set([
  'accepted',
  'rejected',
  'invalid',
  'duplicate',
  'failed',
]);

/** The message of each pre-check refusal. */
export function precheckMessage(texts: Texts, reason: PrecheckReason): string {
  switch (reason) {
    case 'format':
      return texts.format_message;
    case 'size':
      return texts.size_message;
    case 'vertical':
      return texts.vertical_message;
    case 'resolution':
      return texts.resolution_message;
    case 'unreadable':
      return texts.unreadable_message;
  }
}

/** Fills `{{accepted}}` and `{{min}}` of the count label. */
export function countText(label: string, accepted: number, min: number): string {
  return label.replace(/\{\{\s*(accepted|min)\s*\}\}/g, (_w, name: string) =>
    String(name === 'accepted' ? accepted : min),
  );
}

/** One photo of the grid: a server image, or an item of the upload manager not (yet) listed by the server. */
interface Tile {
  /** React key: the client_upload_id, the same before and after the server lists the image. */
  key: string;
  status: UploadStatus;
  image: PropertyImage | null;
  item: UploadItem | null;
  /** The reason shown under the photo (pre-check text, server message), or null. */
  reason: string | null;
}

/** Builds the grid: active server images not deleted here, then the manager's items the server does not list. */
export function tilesOf(
  images: readonly PropertyImage[],
  items: readonly UploadItem[],
  deleted: ReadonlySet<string>,
): Tile[] {
  const shown = images.filter((image) => image.is_active && !deleted.has(image.image_id));
  const listed = new Set(shown.map((image) => image.image_id));
  // A server image uploaded in this session keeps its upload item: the owner's own file is its preview.
  const byUpload = new Map(items.map((item) => [item.client_upload_id, item]));
  const tiles: Tile[] = shown.map((image) => ({
    key: image.client_upload_id,
    status: image.status,
    image,
    item: byUpload.get(image.client_upload_id) ?? null,
    reason: image.status === 'rejected' ? image.message : null,
  }));
  for (const item of items) {
    const imageId = item.image?.image_id;
    if (imageId !== undefined && (listed.has(imageId) || deleted.has(imageId))) continue;
    if (shown.some((image) => image.client_upload_id === item.client_upload_id)) continue;
    tiles.push({
      key: item.client_upload_id,
      status: item.status,
      image: item.image,
      item,
      reason: item.error,
    });
  }
  return tiles;
}

/** Whether the item's own file can be shown: a JPEG or PNG, refused or not (issue 12 item 12). */
const previewable = (item: UploadItem | null) =>
  item !== null && (item.file.type === 'image/jpeg' || item.file.type === 'image/png');

interface TileViewProps {
  tile: Tile;
  label: string;
  texts: Texts;
  canDelete: boolean;
  deleting: boolean;
  deleteError: string | undefined;
  onRetry: () => void;
  onDelete: () => void;
}

function TileView({
  tile,
  label,
  texts,
  canDelete,
  deleting,
  deleteError,
  onRetry,
  onDelete,
}: TileViewProps) {
  const { t } = useTranslation();
  const labelId = useId();
  // The owner's own picture (a local object URL of the file uploaded in this session) comes first, also for a
  // photo the browser or the server refused, so the owner sees which file failed (issue 12 item 12); else the
  // server's thumbnail.
  const preview = usePreview(previewable(tile.item) ? (tile.item?.file ?? null) : null);
  // A picture the browser cannot show (a file it cannot decode, a thumbnail that failed) gives way to the
  // next one, then to the icon.
  const [broken, setBroken] = useState<ReadonlySet<string>>(() => new Set());
  const src = [preview, tile.image?.thumbnail_url].find((url) => url && !broken.has(url)) ?? null;
  const setBrokenSrc = (url: string) => setBroken((all) => new Set(all).add(url));
  const { status } = tile;
  const percent = tile.item?.uploaded_percentile ?? 0;
  const reason = deleteError ?? tile.reason;
  return (
    <Paper
      component="li"
      variant="outlined"
      aria-labelledby={labelId}
      data-status={status}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        overflow: 'hidden',
        borderRadius: 2,
        listStyle: 'none',
      }}
    >
      <Box
        sx={{
          position: 'relative',
          aspectRatio: '4 / 3',
          bgcolor: 'action.hover',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
        }}
      >
        {src ? (
          <Box
            component="img"
            src={src}
            alt={label}
            onError={() => setBrokenSrc(src)}
            loading="lazy"
            // Out of the flow: the box keeps its 4:3 whatever the picture's own size (a portrait photo made it
            // taller once it loaded, and the page below moved under the owner's finger).
            sx={{ position: 'absolute', inset: 0, inlineSize: '100%', blockSize: '100%', objectFit: 'cover' }}
          />
        ) : (
          <ImageOutlinedIcon fontSize="large" color="disabled" aria-hidden />
        )}
        <Chip
          label={texts.status[STATUS_TEXT[status]]}
          color={STATUS_COLOR[status]}
          size="small"
          sx={{ position: 'absolute', insetBlockStart: 8, insetInlineStart: 8, fontWeight: 600 }}
        />
      </Box>
      <Box sx={{ padding: 1, display: 'flex', flexDirection: 'column', gap: 0.5, flexGrow: 1 }}>
        <Typography
          id={labelId}
          variant="caption"
          sx={{ fontWeight: 600 }}
          noWrap
          title={tile.item?.file_name}
        >
          {label}
        </Typography>
        {(status === 'uploading' || status === 'queued') && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <LinearProgress
              variant="determinate"
              value={percent}
              aria-label={t('widgets.image_uploader.progress', { item: label })}
              sx={{ flexGrow: 1 }}
            />
            <Typography variant="caption" sx={{ minInlineSize: '3.5ch', textAlign: 'end' }}>
              {`${percent}%`}
            </Typography>
          </Box>
        )}
        {(status === 'processing' || status === 'checking') && (
          <LinearProgress aria-label={t('widgets.image_uploader.progress', { item: label })} />
        )}
        {reason && (
          <Typography
            variant="caption"
            color={status === 'accepted' && !deleteError ? 'text.secondary' : 'error'}
            sx={{ overflowWrap: 'anywhere' }}
          >
            {reason}
          </Typography>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, marginBlockStart: 'auto' }}>
          {status === 'failed' && (
            <Button
              size="small"
              startIcon={<ReplayIcon />}
              onClick={onRetry}
              aria-label={t('widgets.image_uploader.item_action', { action: texts.retry_label, item: label })}
            >
              {texts.retry_label}
            </Button>
          )}
          {canDelete && (
            <Button
              size="small"
              color="error"
              startIcon={<DeleteOutlineIcon />}
              onClick={onDelete}
              disabled={deleting}
              aria-label={t('widgets.image_uploader.item_action', {
                action: texts.delete_label,
                item: label,
              })}
            >
              {texts.delete_label}
            </Button>
          )}
        </Box>
      </Box>
    </Paper>
  );
}

/** Lines kept in the live region. */
const ANNOUNCEMENT_LOG = 5;

/** Local items that can only be removed from the list (nothing stored on the server). */
const LOCAL_ONLY: ReadonlySet<UploadStatus> = new Set(['invalid', 'failed', 'duplicate']);

/**
 * The `image_uploader` widget (issue 4; SPEC §2 images, §3–§5): the photos of one category (or of one room
 * category of the lead). A heading with
 * "{{accepted}} of {{min}}" and a list of photos — the server's images (thumbnail_url) then the upload
 * manager's items for the same endpoint and category (a local preview until the server answers) — each with
 * its status chip, a progress bar with the percentage (aria-valuenow) while uploading, the reason of a refusal,
 * Retry on a failed upload and Delete where allowed (server images with can_delete; local refused or failed
 * items are only removed). "Add photos" opens a file input (JPEG/PNG, several at once) labelled by the button;
 * each file is pre-checked in the browser ({@link precheckPhoto}) before it is queued. Uploads belong to the
 * engine's manager (`uploads`), so they carry on while the owner is elsewhere. Settled states and deletions
 * are announced in a polite live region; after an upload the server stored or a delete, `on_change` runs.
 * With upload_enabled false there is no add button and no delete of server images; disabled_message shows.
 * With add_enabled false (a group that takes no new photos, e.g. the photos of room categories renamed or
 * removed since) there is no add button, and delete works as usual. With a room_category, uploads carry it
 * (multipart field `room_category`) and the manager's items are those of that room category only.
 */
export function ImageUploader({ contents, dispatch, uploads }: WidgetProps<ImageUploaderContents>) {
  const { t } = useTranslation();
  const { endpoint, category, texts, limits, on_change: onChange } = contents;
  const roomCategory = contents.room_category ?? null;
  // Adding needs both: uploads allowed for the property, and a group that takes new photos.
  const canAdd = contents.upload_enabled && contents.add_enabled !== false;
  const baseId = useId();
  const headingId = `${baseId}-heading`;
  const addId = `${baseId}-add`;
  const inputRef = useRef<HTMLInputElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(() => new Set());
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(() => new Set());
  const [deleteErrors, setDeleteErrors] = useState<Readonly<Record<string, string>>>({});
  const [announcements, setAnnouncements] = useState<readonly { id: number; text: string }[]>([]);
  const announceCounter = useRef(0);
  // A short log rather than one line: several photos may settle in quick succession, and a polite live
  // region reads each added line instead of only the last text.
  const announce = useCallback((text: string) => {
    announceCounter.current += 1;
    const id = announceCounter.current;
    setAnnouncements((log) => [...log.slice(-(ANNOUNCEMENT_LOG - 1)), { id, text }]);
  }, []);

  const getItems = useCallback(
    () => uploads.items(endpoint, category, roomCategory),
    [uploads, endpoint, category, roomCategory],
  );
  const items = useSyncExternalStore(uploads.subscribe, getItems, getItems);
  useEffect(
    () => uploads.watch(endpoint, category, roomCategory),
    [uploads, endpoint, category, roomCategory],
  );

  const tiles = useMemo(() => tilesOf(contents.images, items, deleted), [contents.images, items, deleted]);
  const labelOf = (index: number) => t('widgets.image_uploader.photo', { n: index + 1 });
  const accepted = tiles.filter((tile) => tile.status === 'accepted').length;

  // Once the server lists an image, the manager's item for it has nothing more to tell.
  useEffect(() => {
    const listed = new Set(contents.images.map((image) => image.image_id));
    for (const item of items) {
      if (item.image && listed.has(item.image.image_id) && SETTLED.has(item.status)) uploads.remove(item.id);
    }
  }, [contents.images, items, uploads]);

  // Announce settled states and run on_change when the server stored a photo while this widget is shown;
  // what settled before it mounted (in the background) is already in the screen's fresh contents.
  const seen = useRef<Map<string, UploadStatus> | null>(null);
  useEffect(() => {
    const previous = seen.current;
    const next = new Map(items.map((item) => [item.client_upload_id, item.status] as const));
    seen.current = next;
    if (previous === null) return;
    const lines: string[] = [];
    let stored = false;
    for (const item of items) {
      const before = previous.get(item.client_upload_id);
      if (before === item.status || !SETTLED.has(item.status)) continue;
      const index = tiles.findIndex((tile) => tile.key === item.client_upload_id);
      const name = index >= 0 ? labelOf(index) : item.file_name;
      const status = texts.status[STATUS_TEXT[item.status]];
      lines.push(
        item.error
          ? t('widgets.image_uploader.announce_reason', { item: name, status, reason: item.error })
          : t('widgets.image_uploader.announce', { item: name, status }),
      );
      if (item.status === 'accepted' || item.status === 'rejected') stored = true;
    }
    for (const line of lines) announce(line);
    if (stored && onChange && onChange.length > 0) void dispatch(onChange);
    // labelOf and tiles follow items; running on items alone keeps one announcement per change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [items]);

  const check = useCallback<UploadCheck>(
    async (file) => {
      const result = await precheckPhoto(file, limits);
      return result.ok ? null : precheckMessage(texts, result.reason);
    },
    [limits, texts],
  );

  const onFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Cleared so that choosing the same file again fires a change.
    event.target.value = '';
    if (files.length > 0) uploads.add(endpoint, category, files, check, undefined, roomCategory);
  };

  const focusAfterRemoval = () => {
    (addRef.current ?? headingRef.current)?.focus();
  };

  const deleteTile = async (tile: Tile, label: string) => {
    const imageId = tile.image?.image_id;
    if (!imageId) {
      if (tile.item) uploads.remove(tile.item.id);
      announce(t('widgets.image_uploader.deleted', { item: label }));
      focusAfterRemoval();
      return;
    }
    setDeleting((s) => new Set(s).add(imageId));
    setDeleteErrors(({ [imageId]: _cleared, ...rest }) => rest);
    try {
      await uploads.deleteImage(endpoint, imageId);
      setDeleted((s) => new Set(s).add(imageId));
      announce(t('widgets.image_uploader.deleted', { item: label }));
      focusAfterRemoval();
      if (onChange && onChange.length > 0) void dispatch(onChange);
    } catch (error) {
      const message =
        error instanceof Error && error.message ? error.message : t('widgets.image_uploader.delete_failed');
      setDeleteErrors((s) => ({ ...s, [imageId]: message }));
      announce(message);
    } finally {
      setDeleting((s) => {
        const next = new Set(s);
        next.delete(imageId);
        return next;
      });
    }
  };

  const canDelete = (tile: Tile) => {
    if (tile.image) return contents.upload_enabled && tile.image.can_delete;
    return tile.item !== null && LOCAL_ONLY.has(tile.status);
  };

  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'baseline',
          justifyContent: 'space-between',
          gap: 1,
          flexWrap: 'wrap',
        }}
      >
        <Typography
          id={headingId}
          ref={headingRef}
          tabIndex={-1}
          component="h2"
          variant="h6"
          sx={{ overflowWrap: 'anywhere', outline: 'none' }}
        >
          {contents.title}
        </Typography>
        <Typography
          variant="body2"
          sx={{ fontWeight: 600 }}
          color={accepted >= contents.min_count ? 'success.main' : 'text.secondary'}
          data-count=""
        >
          {countText(texts.count_label, accepted, contents.min_count)}
        </Typography>
      </Box>
      {contents.description && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {contents.description}
        </Typography>
      )}
      {tiles.length > 0 && (
        <Box
          component="ul"
          aria-labelledby={headingId}
          sx={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
            gap: 1.5,
            margin: 0,
            padding: 0,
          }}
        >
          {tiles.map((tile, index) => {
            const label = labelOf(index);
            const imageId = tile.image?.image_id;
            return (
              <TileView
                key={tile.key}
                tile={tile}
                label={label}
                texts={texts}
                canDelete={canDelete(tile)}
                deleting={imageId !== undefined && deleting.has(imageId)}
                deleteError={imageId !== undefined ? deleteErrors[imageId] : undefined}
                onRetry={() => {
                  if (tile.item) uploads.retry(tile.item.id);
                }}
                onDelete={() => void deleteTile(tile, label)}
              />
            );
          })}
        </Box>
      )}
      {canAdd ? (
        <Box sx={{ position: 'relative' }}>
          <Button
            ref={addRef}
            id={addId}
            variant="contained"
            startIcon={<AddPhotoAlternateOutlinedIcon />}
            onClick={() => inputRef.current?.click()}
          >
            {texts.add_label}
          </Button>
          {/* The real input, named by the button (getByLabel finds it); the button is what users focus. */}
          <input
            ref={inputRef}
            type="file"
            accept={limits.mime_types.join(',')}
            multiple
            aria-labelledby={addId}
            tabIndex={-1}
            onChange={onFiles}
            style={visuallyHidden}
          />
        </Box>
      ) : (
        !contents.upload_enabled &&
        contents.disabled_message && (
          <Typography role="note" variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {contents.disabled_message}
          </Typography>
        )
      )}
      <Box
        role="status"
        aria-live="polite"
        aria-relevant="additions text"
        sx={{
          position: 'absolute',
          inlineSize: 1,
          blockSize: 1,
          overflow: 'hidden',
          clipPath: 'inset(50%)',
          whiteSpace: 'nowrap',
        }}
      >
        {announcements.map((line) => (
          <div key={line.id}>{line.text}</div>
        ))}
      </Box>
    </Box>
  );
}
