import { parseOptions } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import {
  createFallbackCounterStore,
  ACCOUNT_RULE,
  checkPassword,
  createAttemptLimiter,
  createMemoryCounterStore,
  hashPassword,
  isCommonPassword,
  meetsPasswordRules,
  type CounterStore,
} from './passwords';

describe('password rules (SPEC §5) and common passwords (NIST SP 800-63B)', () => {
  it('needs 8 characters, a number, a symbol, lower and upper case', () => {
    expect(meetsPasswordRules('Harbour#Light42')).toBe(true);
    expect(meetsPasswordRules('Çağrı#Işık42')).toBe(true);
    for (const bad of [
      'Ab1!xyz',
      'Harbour#Light',
      'HarbourLight42',
      'harbour#light42',
      'HARBOUR#LIGHT42',
      `Aa1!${'x'.repeat(125)}`,
    ])
      expect(meetsPasswordRules(bad), bad).toBe(false);
  });

  it('refuses common passwords, also dressed up with digits and symbols at the ends', () => {
    for (const common of ['Password1!', 'P@ssw0rd1', 'Sunshine#2024', '!!Qwerty123'])
      expect(isCommonPassword(common), common).toBe(true);
    expect(isCommonPassword('Harbour#Light42')).toBe(false);
  });
});

describe('argon2id hashing', () => {
  it('uses the OWASP parameters and never verifies without a hash', async () => {
    const hash = await hashPassword('Harbour#Light42');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(parseOptions(hash)).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(await checkPassword(hash, 'Harbour#Light42')).toBe(true);
    expect(await checkPassword(hash, 'Harbour#Light43')).toBe(false);
    expect(await checkPassword(null, 'Harbour#Light42')).toBe(false);
  });
});

describe('attempt limiter', () => {
  it('blocks at the maximum, backs off by doubling up to the cap, and forgets after a success', async () => {
    let t = 0;
    const limiter = createAttemptLimiter(createMemoryCounterStore(() => t));
    const s = [{ key: 'email:a@example.com', rule: ACCOUNT_RULE }];
    for (let i = 0; i < 4; i += 1) await limiter.fail(s);
    await expect(limiter.assertAllowed(s)).resolves.toBeUndefined();
    await limiter.fail(s);
    await expect(limiter.assertAllowed(s)).rejects.toMatchObject({
      code: 'ONB_RATE_LIMITED',
      retryAfterS: 300,
    });
    t += 300_000;
    await expect(limiter.assertAllowed(s)).resolves.toBeUndefined();
    for (let i = 0; i < 5; i += 1) await limiter.fail(s);
    await expect(limiter.assertAllowed(s)).rejects.toMatchObject({ retryAfterS: 600 });
    t += 600_000;
    for (let i = 0; i < 4; i += 1) await limiter.fail(s);
    await limiter.succeed(s[0]!.key);
    await limiter.fail(s);
    await expect(limiter.assertAllowed(s)).resolves.toBeUndefined();
    for (let n = 0; n < 6; n += 1) {
      t += 3_600_000;
      for (let i = 0; i < 5; i += 1) await limiter.fail(s);
    }
    await expect(limiter.assertAllowed(s)).rejects.toMatchObject({ retryAfterS: 3600 });
  });
});

describe('counters with a fallback (issue 14 item 2)', () => {
  it('count in memory while the shared store fails, and go back to it when it answers', async () => {
    let failing = false;
    const shared = createMemoryCounterStore();
    const flaky: CounterStore = {
      incr: (key, ttlMs) => (failing ? Promise.reject(new Error('ECONNREFUSED')) : shared.incr(key, ttlMs)),
      mark: (key, ttlMs) => (failing ? Promise.reject(new Error('ECONNREFUSED')) : shared.mark(key, ttlMs)),
      ttl: (key) => (failing ? Promise.reject(new Error('ECONNREFUSED')) : shared.ttl(key)),
      del: (key) => (failing ? Promise.reject(new Error('ECONNREFUSED')) : shared.del(key)),
    };
    const outages: boolean[] = [];
    const store = createFallbackCounterStore(flaky, createMemoryCounterStore(), (down) => outages.push(down));
    expect(await store.incr('a', 60_000)).toBe(1);
    failing = true;
    expect(await store.incr('a', 60_000)).toBe(1);
    expect(await store.incr('a', 60_000)).toBe(2);
    await store.mark('b', 60_000);
    expect(await store.ttl('b')).toBeGreaterThan(0);
    failing = false;
    expect(await store.incr('a', 60_000)).toBe(2);
    expect(outages).toEqual([true, false]);
  });
});
