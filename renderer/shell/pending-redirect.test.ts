import { afterEach, describe, expect, it } from 'vitest';
import {
  continueTarget,
  rememberPendingRedirect,
  safeAppTarget,
  takeSignInTarget,
  withContinue,
} from './pending-redirect';

afterEach(() => localStorage.clear());

const q = (value: string) => `?${new URLSearchParams({ continue: value }).toString()}`;

describe('the continue parameter (SPEC §4)', () => {
  it('follows same-origin paths under the app, normalised', () => {
    expect(continueTarget(q('/propertyOnboard/dashboard'))).toBe('/propertyOnboard/dashboard');
    expect(continueTarget(q('/propertyOnboard/IN/task/details?task=kyc#top'))).toBe(
      '/propertyOnboard/IN/task/details?task=kyc#top',
    );
    expect(continueTarget(q('/propertyOnboard'))).toBe('/propertyOnboard');
    expect(continueTarget(q('/propertyOnboard/a/../account'))).toBe('/propertyOnboard/account');
  });

  it.each([
    '//evil.com',
    '//evil.com/propertyOnboard',
    'https://evil.com',
    'https://evil.com/propertyOnboard/dashboard',
    '/\\evil.com',
    '\\/evil.com',
    '/\\/evil.com/propertyOnboard',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    '/\t/evil.com',
    '/\n/evil.com',
    '/propertyOnboard/../../evil',
    '/propertyOnboard/..//evil.com',
    '/propertyOnboardX',
    '/404',
    'propertyOnboard/dashboard',
    ' /propertyOnboard/dashboard',
    '',
  ])('ignores %j', (hostile) => {
    expect(continueTarget(q(hostile))).toBeNull();
    expect(safeAppTarget(hostile)).toBeNull();
  });

  it('ignores a query without continue', () => {
    expect(continueTarget('?utm_source=sms')).toBeNull();
    expect(continueTarget('')).toBeNull();
  });

  it('builds the login path with a safe target only', () => {
    expect(withContinue('/propertyOnboard/login', '/propertyOnboard/kyc?x=1')).toBe(
      '/propertyOnboard/login?continue=%2FpropertyOnboard%2Fkyc%3Fx%3D1',
    );
    expect(withContinue('/propertyOnboard/login', '//evil.com')).toBe('/propertyOnboard/login');
  });

  it('prefers continue to the remembered target after sign-in, and clears the remembered one', () => {
    rememberPendingRedirect('/propertyOnboard/dashboard', null);
    expect(takeSignInTarget(q('/propertyOnboard/account'))).toBe('/propertyOnboard/account');
    expect(localStorage.getItem('pending_redirect')).toBeNull();
    rememberPendingRedirect('/propertyOnboard/dashboard', null);
    expect(takeSignInTarget(q('https://evil.com'))).toBe('/propertyOnboard/dashboard');
    rememberPendingRedirect('//evil.com', null);
    expect(takeSignInTarget('')).toBeNull();
  });
});
