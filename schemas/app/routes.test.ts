import { describe, expect, it } from 'vitest';
import { APP_ROUTES, footerShown } from './routes';

const route = (path: string) => APP_ROUTES.find((r) => r.path === path)!;

describe('footerShown (SPEC §2)', () => {
  it('shows the footer tabs on a route with them, unless the screen or the L1 revamp hides them', () => {
    expect(footerShown(route('task'), false, false)).toBe(true);
    expect(footerShown(route('account'), false, true)).toBe(true);
    expect(footerShown(route('task'), true, false)).toBe(false);
    expect(footerShown(route('task'), false, true)).toBe(false);
    expect(footerShown(route('sign_up'), false, false)).toBe(false);
    expect(footerShown(route('kyc'), false, false)).toBe(false);
  });
});
