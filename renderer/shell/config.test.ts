import { describe, expect, it } from 'vitest';
import { DEFAULT_POPUP_TIMER_MS } from '../../widgets/popup/popup';
import { ACTION_TOAST_MIN_MS, POPUP_DEFAULT_TIMER_MS, toastTimerMs } from './config';

describe('toastTimerMs (SPEC §9, issue 12 item 27)', () => {
  it("honours the popup's default of 400 ms when a widget asks for it", () => {
    expect(DEFAULT_POPUP_TIMER_MS).toBe(POPUP_DEFAULT_TIMER_MS);
    expect(toastTimerMs(DEFAULT_POPUP_TIMER_MS)).toBe(400);
    expect(toastTimerMs(6000)).toBe(6000);
  });

  it('keeps 2000 ms for a toast that names no timer', () => {
    expect(toastTimerMs(undefined)).toBe(ACTION_TOAST_MIN_MS);
  });
});
