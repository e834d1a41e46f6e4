import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rememberScreensChecked, screensCheckedBefore, screensCheckKey } from './check-stamp';

const root = mkdtempSync(join(tmpdir(), 'onboard-stamp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the stamp of the last passed screen check (issue 13 item 5)', () => {
  it('holds for the same files and not after any of them changed, was added or removed', () => {
    const screens = join(root, 'screens');
    const locales = join(root, 'locales');
    mkdirSync(join(screens, 'fixtures'), { recursive: true });
    mkdirSync(locales);
    writeFileSync(join(screens, 'sign_up.json'), '{"screen_id":"sign_up"}');
    writeFileSync(join(screens, 'fixtures', 'a.json'), '{}');
    writeFileSync(join(locales, 'en.json'), '{"a":"A"}');
    const stamp = join(root, 'out', 'screens-checked');
    const key = screensCheckKey([screens, locales]);

    expect(screensCheckedBefore(key, stamp)).toBe(false);
    rememberScreensChecked(key, stamp);
    expect(screensCheckedBefore(screensCheckKey([screens, locales]), stamp)).toBe(true);

    writeFileSync(join(locales, 'en.json'), '{"a":"B"}');
    expect(screensCheckedBefore(screensCheckKey([screens, locales]), stamp)).toBe(false);
    writeFileSync(join(locales, 'en.json'), '{"a":"A"}');
    writeFileSync(join(screens, 'fixtures', 'b.json'), '{}');
    expect(screensCheckedBefore(screensCheckKey([screens, locales]), stamp)).toBe(false);
    rmSync(join(screens, 'fixtures', 'b.json'));
    expect(screensCheckedBefore(screensCheckKey([screens, locales]), stamp)).toBe(true);
  });
});
