import { describe, expect, it } from 'vitest';
import { onFirstUse } from './on-first-use';

describe('onFirstUse', () => {
  it('loads on the first call only, and concurrent first calls share that load', async () => {
    let loads = 0;
    const load = onFirstUse(async () => {
      loads += 1;
      return { loaded: loads };
    });
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(loads).toBe(1);
  });

  it('tries again on the next call after a load that failed', async () => {
    let calls = 0;
    const load = onFirstUse(async () => {
      calls += 1;
      if (calls === 1) throw new Error('not there yet');
      return 'loaded';
    });
    await expect(load()).rejects.toThrow('not there yet');
    expect(await load()).toBe('loaded');
    expect(await load()).toBe('loaded');
    expect(calls).toBe(2);
  });
});
