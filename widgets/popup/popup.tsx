import { useEffect, useRef } from 'react';
import type { PopupContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

/** How long a popup's toast stays when the screen gives no timer, in ms (SPEC §9). */
export const DEFAULT_POPUP_TIMER_MS = 400;

/**
 * The `popup` widget: a server-composed notice. On mount it asks the engine to show one toast
 * (`show_toast` with `toast_text`, `status`, `timer_ms: timer ?? 400`) and draws nothing itself; the
 * shell's toast area draws it (SPEC §3 popup item, §9).
 */
export function Popup({ contents, dispatch }: WidgetProps<PopupContents>) {
  const shown = useRef(false);
  useEffect(() => {
    // Once per mount, also under StrictMode's double effect run.
    if (shown.current) return;
    shown.current = true;
    void dispatch([
      {
        type: 'show_toast',
        text: contents.toast_text,
        status: contents.status,
        timer_ms: contents.timer ?? DEFAULT_POPUP_TIMER_MS,
      },
    ]);
  }, [contents, dispatch]);
  return null;
}
