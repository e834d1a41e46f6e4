import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { ReferralHeaderContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { harness } from '../test-harness';
import { ReferralHeader } from './referral-header';

describe('referral_header fixtures', () => {
  it.each(goodFixtures('referral_header').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('referral_header', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('referral_header').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('referral_header', env.contents).valid).toBe(false);
    },
  );
});

describe('ReferralHeader', () => {
  it('invites the owner to add a code when there is none', () => {
    const contents = fixtureContents<ReferralHeaderContents>('referral_header', 'none');
    render(harness({ component: ReferralHeader, contents }));
    expect(screen.getByRole('heading', { level: 1, name: 'Referral' })).toBeInTheDocument();
    expect(screen.getByText('Sea View Residency')).toBeInTheDocument();
    // The property's name is not a heading: h1 then h6 skipped levels (axe heading-order, issue 12 item 19).
    expect(screen.getAllByRole('heading')).toHaveLength(1);
    expect(screen.getByText(contents.description!)).toBeInTheDocument();
    expect(screen.queryByText('Verified')).toBeNull();
  });

  it('shows the verified code and who referred instead of the invitation', () => {
    const contents = fixtureContents<ReferralHeaderContents>('referral_header', 'verified');
    render(harness({ component: ReferralHeader, contents }));
    expect(screen.getByText('OYOREF100')).toBeInTheDocument();
    expect(screen.getByText('Verified')).toBeInTheDocument();
    expect(screen.getByText('Referred by Priya Sharma')).toBeInTheDocument();
    expect(screen.queryByText(contents.description!)).toBeNull();
  });
});
