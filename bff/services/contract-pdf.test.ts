import { describe, expect, it } from 'vitest';
import { warmContractPdf } from './contract-pdf';

describe('warmContractPdf', () => {
  it('loads the PDF engine once per process: later calls share the first warm-up, which resolves', async () => {
    const first = warmContractPdf();
    expect(warmContractPdf()).toBe(first);
    await expect(first).resolves.toBeUndefined();
    expect(warmContractPdf()).toBe(first);
  });
});
