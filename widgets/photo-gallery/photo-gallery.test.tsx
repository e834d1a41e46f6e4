import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PhotoGalleryContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { harness } from '../test-harness';
import { PhotoGallery } from './photo-gallery';

describe('photo_gallery fixtures', () => {
  it.each(goodFixtures('photo_gallery').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('photo_gallery', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('photo_gallery').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('photo_gallery', env.contents).valid).toBe(false);
    },
  );
});

describe('PhotoGallery', () => {
  it('shows the cover large and switches the large picture with the thumbnails', async () => {
    const contents = fixtureContents<PhotoGalleryContents>('photo_gallery', 'three');
    render(harness({ component: PhotoGallery, contents }));
    const large = screen.getByRole('img', { name: 'Photo of Sea View Residency' });
    expect(large).toHaveAttribute('src', contents.images[0]!.url);
    const thumbs = screen.getAllByRole('button');
    expect(thumbs).toHaveLength(3);
    expect(thumbs[0]).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Photo 3 of 3' }));
    expect(large).toHaveAttribute('src', contents.images[2]!.url);
    expect(screen.getByRole('button', { name: 'Photo 3 of 3' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('starts on the cover even when it is not the first photo, and has no thumbnails for one photo', () => {
    const three = fixtureContents<PhotoGalleryContents>('photo_gallery', 'three');
    const { unmount } = render(
      harness({ component: PhotoGallery, contents: { ...three, cover_url: three.images[1]!.url } }),
    );
    expect(screen.getByRole('img', { name: three.alt })).toHaveAttribute('src', three.images[1]!.url);
    unmount();
    render(
      harness({
        component: PhotoGallery,
        contents: fixtureContents<PhotoGalleryContents>('photo_gallery', 'single'),
      }),
    );
    expect(screen.queryByRole('button')).toBeNull();
  });
});
