import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { loadUploads, uploadsOf } from './lazy-uploads';

describe('the upload manager as a chunk of its own (issue 13 item 2)', () => {
  it('refuses use before it is loaded, then is the store’s one manager, the same object for the store', async () => {
    const store = createStore();
    const uploads = uploadsOf(store);
    expect(uploadsOf(store)).toBe(uploads);
    expect(() => uploads.items('/x', 'facade')).toThrow(/before loadUploads/);

    const { uploadManagerFor } = await loadUploads();
    expect(uploads.items('/x', 'facade')).toEqual([]);
    expect(uploads.bulk()).toEqual(uploadManagerFor(store).bulk());
    let changes = 0;
    const stop = uploads.subscribe(() => changes++);
    const unwatch = uploads.watch('/x', 'facade');
    expect(changes).toBeGreaterThan(0);
    unwatch();
    stop();
    expect(uploadsOf(createStore())).not.toBe(uploads);
  });
});
