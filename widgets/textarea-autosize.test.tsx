import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import LazyTextareaAutosize, { loadTextareaAutosize } from './textarea-autosize';

describe('the textarea of a multiline field, from a chunk of its own', () => {
  it('waits for MUI’s TextareaAutosize under its placeholder, then draws it with the props it was given', async () => {
    render(
      <Suspense fallback={<p role="status">loading</p>}>
        <LazyTextareaAutosize aria-label="Message" minRows={3} defaultValue="Hello" />
      </Suspense>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('loading');
    const field = await screen.findByRole('textbox', { name: 'Message' });
    expect(field.tagName).toBe('TEXTAREA');
    expect(field).toHaveValue('Hello');
    // MUI's TextareaAutosize draws a hidden shadow textarea beside the field to measure its height.
    expect(document.querySelectorAll('textarea')).toHaveLength(2);
  });

  it('is drawn at once once loaded', async () => {
    await loadTextareaAutosize();
    render(<LazyTextareaAutosize aria-label="Note" />);
    expect(screen.getByRole('textbox', { name: 'Note' })).toBeInTheDocument();
  });
});
