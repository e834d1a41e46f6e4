import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashToken, SESSION_COOKIE, sessionIdFromCookies } from './sessions';

describe('hashToken', () => {
  it('is the hex SHA-256 of the token (the sessions.id every stored session row was written with)', () => {
    // FIPS 180-2's example of "abc".
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const token = 'Qm9vdC1zZXNzaW9uLXRva2VuLWZvci10ZXN0aW5nLW9ubHk';
    expect(hashToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
  });

  it('gives the session id of the cookie that carries a token, and null without one', () => {
    expect(sessionIdFromCookies({ [SESSION_COOKIE]: 'abc' })).toBe(hashToken('abc'));
    expect(sessionIdFromCookies({})).toBeNull();
    expect(sessionIdFromCookies({ [SESSION_COOKIE]: '' })).toBeNull();
  });
});
