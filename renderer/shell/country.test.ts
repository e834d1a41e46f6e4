import { describe, expect, it } from 'vitest';
import { isCountrySegment, parseAppPath, signUpPath, toBrowserPath } from './country';
import { isSafeAppTarget } from './pending-redirect';

describe('parseAppPath (SPEC §2 country codes)', () => {
  it.each([
    ['/propertyOnboard', 'property_middleware', null],
    ['/propertyOnboard/', 'property_middleware', null],
    ['/propertyOnboard/sign_up', 'sign_up', null],
    ['/propertyOnboard/IN/sign_up', 'sign_up', 'IN'],
    ['/propertyOnboard/in/dashboard', 'dashboard', 'in'],
    ['/propertyOnboard/Id/task/details', 'task_details', 'Id'],
    ['/propertyOnboard/ae', 'property_middleware', 'ae'],
    ['/propertyOnboard/task/details/', 'task_details', null],
  ])('%s → %s (country %s)', (path, screenId, country) => {
    const parsed = parseAppPath(path);
    expect(parsed.kind).toBe('route');
    if (parsed.kind === 'route') {
      expect(parsed.route.screenId).toBe(screenId);
      expect(parsed.countryCode).toBe(country);
    }
  });

  it.each([
    '/propertyOnboard/1x/task',
    '/propertyOnboard/ind/task',
    '/propertyOnboard/i/task',
    '/propertyOnboard/IN/nowhere',
    '/propertyOnboard/nowhere',
    '/propertyOnboard/IN/IN/task',
    '/propertyOnboard/social_login/google',
    '/elsewhere',
  ])('%s is not found', (path) => {
    expect(parseAppPath(path).kind).toBe('not_found');
  });

  it('accepts exactly two letters a-z in either case', () => {
    expect(isCountrySegment('in')).toBe(true);
    expect(isCountrySegment('IN')).toBe(true);
    expect(isCountrySegment('iN')).toBe(true);
    expect(isCountrySegment('i1')).toBe(false);
    expect(isCountrySegment('ñe')).toBe(false);
    expect(isCountrySegment('ind')).toBe(false);
  });

  it('builds country-aware paths', () => {
    expect(toBrowserPath('/dashboard', 'IN')).toBe('/propertyOnboard/IN/dashboard');
    expect(toBrowserPath('/', null)).toBe('/propertyOnboard');
    expect(toBrowserPath('/?step=2', 'ae')).toBe('/propertyOnboard/ae?step=2');
    expect(signUpPath('IN')).toBe('/propertyOnboard/IN/sign_up');
    expect(signUpPath(null)).toBe('/propertyOnboard/sign_up');
  });
});

describe('isSafeAppTarget', () => {
  it('accepts same-origin paths under /propertyOnboard only', () => {
    expect(isSafeAppTarget('/propertyOnboard/IN/dashboard?x=1')).toBe(true);
    expect(isSafeAppTarget('/propertyOnboard')).toBe(true);
    expect(isSafeAppTarget('//evil.example/propertyOnboard')).toBe(false);
    expect(isSafeAppTarget('https://evil.example/propertyOnboard')).toBe(false);
    expect(isSafeAppTarget('/propertyOnboardX')).toBe(false);
    expect(isSafeAppTarget('/\\evil.example')).toBe(false);
    expect(isSafeAppTarget('/propertyOnboard/../admin')).toBe(false);
  });
});
