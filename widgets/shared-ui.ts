import { useEffect, useState, type CSSProperties } from 'react';

/**
 * Styles that hide an element from sight but keep it in the accessibility tree and focusable: live regions,
 * native file inputs named by their button, native radios behind cards. Logical properties, so right-to-left
 * layouts need nothing else.
 */
export const visuallyHidden = {
  position: 'absolute',
  inlineSize: 1,
  blockSize: 1,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
} as const satisfies CSSProperties;

/**
 * A `blob:` URL showing a local file (e.g. a photo before the server's thumbnail exists), or null without a
 * file or where `URL.createObjectURL` is missing (jsdom). Revoked when the file changes and on unmount.
 */
export function usePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') return undefined;
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => {
      URL.revokeObjectURL(next);
      setUrl(null);
    };
  }, [file]);
  return url;
}

/**
 * Where a popup (a MUI Menu or Popover) is portalled: the page's `main` landmark when there is one, else
 * `document.body`. In `main` the open popup stays inside a landmark (axe `region`, issue 12 item 19); MUI
 * still positions it over the page.
 */
export function popupContainer(): HTMLElement {
  return document.querySelector<HTMLElement>('main') ?? document.body;
}
