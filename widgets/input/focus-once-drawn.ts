import { useEffect, useRef, type RefObject } from 'react';

/**
 * A widget's `autofocus`, applied once the screen has been painted: returns a ref for the element to focus
 * (`existing`, when the widget has a ref of its own for that element).
 *
 * React's own `autoFocus` focuses during the commit of the first draw, and a focus forces the browser to
 * compute the styles and layout of the whole page then and there, inside that one long task (≈125 ms of
 * the sign-in screen's first draw at Lighthouse's 4× CPU slowdown; issue 13 item 4). Here the focus comes
 * after the next frame, when that layout is already done for the paint. The element is focused only when
 * nothing else has the focus by then (the owner may already have tapped another field), and the pending
 * focus is dropped when the widget goes away or `enabled` turns false.
 */
export function useFocusOnceDrawn<T extends HTMLElement>(
  enabled: boolean | undefined,
  existing?: RefObject<T | null>,
): RefObject<T | null> {
  const own = useRef<T>(null);
  const ref = existing ?? own;
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame callback runs before that frame's paint; a task queued from it runs after the paint.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        const element = ref.current;
        const active = element?.ownerDocument.activeElement;
        if (element && (!active || active === element.ownerDocument.body)) element.focus();
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [enabled, ref]);
  return ref;
}
