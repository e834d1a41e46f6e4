export { Popup, DEFAULT_POPUP_TIMER_MS } from './popup';
