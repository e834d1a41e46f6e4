import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { RedirectContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { Redirect } from './redirect';

describe('redirect fixtures', () => {
  it.each(goodFixtures('redirect').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('redirect', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('redirect').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('redirect', env.contents).valid).toBe(false);
    },
  );
});

describe('Redirect', () => {
  it('navigates once, replacing the history entry, and shows a labelled progress indicator', () => {
    const record = createHarnessRecord();
    const contents = fixtureContents<RedirectContents>('redirect', 'dashboard');
    render(<StrictMode>{harness({ component: Redirect, contents, record })}</StrictMode>);
    expect(record.actions).toEqual([[{ type: 'navigate', to: '/dashboard?utm_source=app', replace: true }]]);
    expect(screen.getByRole('progressbar', { name: 'Redirecting…' })).toBeInTheDocument();
  });

  it('passes its query with the navigation, for the engine to append', () => {
    const record = createHarnessRecord();
    const contents = fixtureContents<RedirectContents>('redirect', 'with-query');
    render(harness({ component: Redirect, contents, record }));
    expect(record.actions).toEqual([
      [{ type: 'navigate', to: '/task', replace: true, query: { property_unique_id: 'PO1A2B3C4D5E' } }],
    ]);
  });

  it('labels the progress in Arabic', () => {
    render(
      harness({
        component: Redirect,
        contents: fixtureContents<RedirectContents>('redirect', 'arabic-locale'),
        language: 'ar',
      }),
    );
    expect(screen.getByRole('progressbar', { name: 'جارٍ إعادة التوجيه…' })).toBeInTheDocument();
  });
});
