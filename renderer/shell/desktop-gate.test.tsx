import { act, render, screen as view } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/instance';
import { DesktopGate, isDesktopEnvironment, type DesktopProbe } from './desktop-gate';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126 Safari/537.36';

describe('isDesktopEnvironment (SPEC §1, §9)', () => {
  it.each<[string, DesktopProbe, boolean]>([
    ['a phone', { width: 390, userAgent: IPHONE }, false],
    ['an Android phone', { width: 412, userAgent: ANDROID }, false],
    ['a phone wider than 1280 px', { width: 1281, userAgent: ANDROID }, true],
    ['exactly 1280 px on mobile', { width: 1280, userAgent: ANDROID }, false],
    ['a desktop browser in a narrow window', { width: 500, userAgent: DESKTOP }, true],
    ['userAgentData.mobile === false', { width: 500, userAgent: ANDROID, uaMobile: false }, true],
    ['userAgentData.mobile === true', { width: 500, userAgent: DESKTOP, uaMobile: true }, false],
  ])('%s', (_name, probe, desktop) => {
    expect(isDesktopEnvironment(probe)).toBe(desktop);
  });
});

describe('DesktopGate', () => {
  it('shows only the message on desktop and the app on mobile, re-evaluated on resize', async () => {
    let probe: DesktopProbe = { width: 390, userAgent: IPHONE };
    const read = () => probe;
    render(
      <I18nextProvider i18n={i18n}>
        <DesktopGate probe={read}>
          <button type="button">Continue</button>
        </DesktopGate>
      </I18nextProvider>,
    );
    expect(view.getByRole('button', { name: 'Continue' })).toBeInTheDocument();
    expect(view.queryByText(/open the partner site on a mobile browser/)).not.toBeInTheDocument();

    probe = { width: 1440, userAgent: IPHONE };
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    expect(await view.findByText(/open the partner site on a mobile browser/)).toBeInTheDocument();
    expect(view.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
  });
});

describe('DesktopMessage QR code (issue 12 item 19)', () => {
  it('draws a QR code of the link to open on the phone, beside the link', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <DesktopGate probe={() => ({ width: 1440, userAgent: DESKTOP })}>
          <span />
        </DesktopGate>
      </I18nextProvider>,
    );
    const qr = await view.findByRole('img', { name: 'QR code to open the partner site on your phone' });
    const src = qr.getAttribute('src') ?? '';
    expect(src.startsWith('data:image/svg+xml')).toBe(true);
    const svg = decodeURIComponent(src.slice(src.indexOf(',') + 1));
    expect(svg).toMatch(/^<svg[\s\S]*<path[\s\S]*<\/svg>\s*$/);
    expect(view.getByRole('link', { name: window.location.href })).toBeInTheDocument();
  });
});
