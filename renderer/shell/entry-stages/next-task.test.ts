import { describe, expect, it, vi } from 'vitest';
import { nextTask } from './next-task';

describe('nextTask', () => {
  it('uses scheduler.yield where the browser has it, called on the scheduler', async () => {
    const scheduler = {
      yield: vi.fn(function (this: unknown) {
        expect(this).toBe(scheduler);
        return Promise.resolve();
      }),
    };
    await nextTask({ scheduler, MessageChannel });
    expect(scheduler.yield).toHaveBeenCalledTimes(1);
  });

  it('else resolves in a later task, after a task queued before it', async () => {
    const order: string[] = [];
    const earlier = new MessageChannel();
    earlier.port1.onmessage = () => {
      order.push('earlier task');
      earlier.port1.close();
    };
    earlier.port2.postMessage(null);
    const done = nextTask({ MessageChannel }).then(() => order.push('next task'));
    await Promise.resolve();
    order.push('same task');
    await done;
    expect(order).toEqual(['same task', 'earlier task', 'next task']);
  });

  it('falls back to a timer without MessageChannel', async () => {
    let resolved = false;
    const done = nextTask({}).then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved).toBe(false);
    await done;
    expect(resolved).toBe(true);
  });
});
