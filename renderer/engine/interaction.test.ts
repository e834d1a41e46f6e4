import { describe, expect, it, vi } from 'vitest';

// Counts the times the interaction chunk is evaluated.
const evaluated = vi.hoisted(() => vi.fn());
vi.mock('./interaction-code', () => {
  evaluated();
  return { dispatch: vi.fn(async () => true), validateFieldWhenReady: vi.fn() };
});

const { loadInteractionCode } = await import('./interaction');

describe('loadInteractionCode', () => {
  it('fetches the dispatcher and field checks when first asked for, once', async () => {
    expect(evaluated).not.toHaveBeenCalled();
    const [first, second] = await Promise.all([loadInteractionCode(), loadInteractionCode()]);
    expect(first).toBe(second);
    expect(await first.dispatch([], {} as never)).toBe(true);
    await loadInteractionCode();
    expect(evaluated).toHaveBeenCalledTimes(1);
  });
});
