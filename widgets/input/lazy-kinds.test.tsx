import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { InputContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { harness } from '../test-harness';
import { Input } from './input';

describe('the input kinds no sign-in screen draws (a chunk of their own)', () => {
  const number = fixtureContents<InputContents>('input', 'number');
  const pan = fixtureContents<InputContents>('input', 'pan');
  const multiline = fixtureContents<InputContents>('input', 'multiline');

  it('need their chunk; the sign-in kinds need none', () => {
    for (const kind of ['text', 'email', 'phone', 'otp', 'password'])
      expect(Input.prepared(fixtureContents<InputContents>('input', kind))).toBe(true);
    for (const contents of [number, pan, multiline]) expect(Input.prepared(contents)).toBe(false);
  });

  it('draw a busy placeholder until the chunk is there, then the field; prepare fetches it for all three', async () => {
    render(harness({ component: Input, contents: number }));
    expect(screen.getByRole('status')).toHaveAttribute('aria-busy', 'true');
    expect(await screen.findByRole('textbox', { name: number.label })).toHaveAttribute(
      'inputmode',
      'numeric',
    );
    await Input.prepare(pan);
    for (const contents of [number, pan, multiline]) expect(Input.prepared(contents)).toBe(true);
  });
});
