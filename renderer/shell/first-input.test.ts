import { describe, expect, it, vi } from 'vitest';
import { onFirstInput } from './first-input';

describe('onFirstInput', () => {
  it('runs its task at the first touch, pointer press or key, once, and not before', () => {
    const target = new EventTarget();
    const task = vi.fn();
    onFirstInput(target as unknown as Window, task);
    target.dispatchEvent(new Event('focus'));
    target.dispatchEvent(new Event('scroll'));
    expect(task).not.toHaveBeenCalled();
    target.dispatchEvent(new Event('pointerdown'));
    expect(task).toHaveBeenCalledTimes(1);
    target.dispatchEvent(new Event('keydown'));
    target.dispatchEvent(new Event('touchstart'));
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('runs it at a key alone (a keyboard user)', () => {
    const target = new EventTarget();
    const task = vi.fn();
    onFirstInput(target as unknown as Window, task);
    target.dispatchEvent(new Event('keydown'));
    expect(task).toHaveBeenCalledTimes(1);
  });
});
