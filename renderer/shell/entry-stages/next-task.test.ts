import { describe, expect, it, vi } from 'vitest';
import { entryBreak, nextTask } from './next-task';

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

describe('entryBreak', () => {
  const pageWith = (attributes: Record<string, string>) => {
    const root = document.createElement('div');
    for (const [name, value] of Object.entries(attributes)) root.setAttribute(name, value);
    return { getElementById: (id: string) => (id === 'root' ? root : null) };
  };

  it('yields the task on a page the server drew', async () => {
    const scheduler = { yield: vi.fn(() => Promise.resolve()) };
    await entryBreak(pageWith({ 'data-server-drawn': 'en-GB' }), { scheduler });
    expect(scheduler.yield).toHaveBeenCalledTimes(1);
  });

  it('goes on in the same task on a page the browser draws, or without a root', () => {
    const scheduler = { yield: vi.fn(() => Promise.resolve()) };
    expect(entryBreak(pageWith({}), { scheduler })).toBeUndefined();
    expect(entryBreak({ getElementById: () => null }, { scheduler })).toBeUndefined();
    expect(scheduler.yield).not.toHaveBeenCalled();
  });
});
