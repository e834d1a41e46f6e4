import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { PhotoTipsContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { harness } from '../test-harness';
import { PhotoTips } from './photo-tips';

describe('photo_tips fixtures', () => {
  it('has good and error fixtures', () => {
    expect(goodFixtures('photo_tips').length).toBeGreaterThan(0);
    expect(errorFixtures('photo_tips').length).toBeGreaterThan(0);
  });
  it.each(goodFixtures('photo_tips').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('photo_tips', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('photo_tips').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('photo_tips', env.contents).valid).toBe(false);
    },
  );
});

const withSamples = fixtureContents<PhotoTipsContents>('photo_tips', 'with-samples');

describe('PhotoTips', () => {
  it('is a section named by its heading with the tips as a list, in order', () => {
    render(harness({ component: PhotoTips, contents: withSamples }));
    const section = screen.getByRole('region', { name: 'Tips for good photos' });
    const tips = within(section).getAllByRole('list')[0]!;
    expect(
      within(tips)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(withSamples.tips);
  });

  it('shows each sample picture with its alt text, source and caption', () => {
    render(harness({ component: PhotoTips, contents: withSamples }));
    const samples = screen.getByRole('list', { name: 'Sample photos' });
    const figures = within(samples).getAllByRole('figure');
    expect(figures).toHaveLength(4);
    const facade = within(figures[0]!).getByRole('img', { name: withSamples.samples![0]!.alt });
    expect(facade).toHaveAttribute('src', '/propertyOnboard/samples/facade.svg');
    expect(facade).toHaveAttribute('loading', 'lazy');
    expect(figures[0]).toHaveTextContent('Front of the property');
  });

  it('draws no samples part without samples', () => {
    render(
      harness({
        component: PhotoTips,
        contents: fixtureContents<PhotoTipsContents>('photo_tips', 'tips-only'),
      }),
    );
    expect(screen.queryByText('Sample photos')).not.toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('reads right to left in Arabic', () => {
    render(
      harness({
        component: PhotoTips,
        contents: fixtureContents<PhotoTipsContents>('photo_tips', 'arabic'),
        language: 'ar',
      }),
    );
    const section = screen.getByRole('region', { name: 'نصائح لصور جيدة' });
    expect(section.closest('[dir]')).toHaveAttribute('dir', 'rtl');
    expect(screen.getByRole('list', { name: 'صور نموذجية' })).toBeInTheDocument();
  });
});
