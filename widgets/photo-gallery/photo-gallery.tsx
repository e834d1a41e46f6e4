import { useState } from 'react';
import { Box, ButtonBase } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PhotoGalleryContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

/**
 * The `photo_gallery` widget: the property's photos as a guest would see them (SPEC §2 review /
 * preview). A large 4:3 picture, the cover first, then a scrolling row of 64 px thumbnails; choosing a
 * thumbnail shows its display copy large (aria-pressed marks the one shown). Pictures load lazily from
 * the app's own API with the owner's session.
 */
export function PhotoGallery({ contents }: WidgetProps<PhotoGalleryContents>) {
  const { t } = useTranslation();
  const images = contents.images;
  const coverIndex = Math.max(
    0,
    images.findIndex((i) => i.url === contents.cover_url),
  );
  const [shown, setShown] = useState(coverIndex);
  const current = images[Math.min(shown, images.length - 1)]!;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box
        component="img"
        src={current.url}
        alt={contents.alt}
        sx={{
          inlineSize: '100%',
          aspectRatio: '4 / 3',
          objectFit: 'cover',
          borderRadius: 2,
          backgroundColor: 'action.hover',
          display: 'block',
        }}
      />
      {images.length > 1 && (
        <Box
          role="group"
          aria-label={t('widgets.photo_gallery.thumbnails')}
          sx={{ display: 'flex', gap: 1, overflowX: 'auto', paddingBlockEnd: 0.5 }}
        >
          {images.map((image, index) => (
            <ButtonBase
              key={image.url}
              aria-label={t('widgets.photo_gallery.photo', { n: index + 1, total: images.length })}
              aria-pressed={index === shown}
              onClick={() => setShown(index)}
              sx={{
                flex: '0 0 auto',
                borderRadius: 1,
                outline: index === shown ? '2px solid' : 'none',
                outlineColor: 'primary.main',
                outlineOffset: 1,
              }}
            >
              <Box
                component="img"
                src={image.thumbnail_url}
                alt=""
                loading="lazy"
                sx={{ inlineSize: 64, blockSize: 48, objectFit: 'cover', borderRadius: 1, display: 'block' }}
              />
            </ButtonBase>
          ))}
        </Box>
      )}
    </Box>
  );
}
