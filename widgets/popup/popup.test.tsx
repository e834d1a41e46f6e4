import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import type { PopupContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { Popup } from './popup';

describe('popup fixtures', () => {
  it.each(goodFixtures('popup').map((f) => [f.name, f.envelope] as const))('good/%s validates', (_n, env) => {
    expect(checkContents('popup', env.contents).errors).toEqual([]);
  });
  it.each(errorFixtures('popup').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('popup', env.contents).valid).toBe(false);
    },
  );
});

describe('Popup', () => {
  it('dispatches its toast once on mount, with its timer, and draws nothing', () => {
    const record = createHarnessRecord();
    const contents = fixtureContents<PopupContents>('popup', 'success');
    const { container } = render(<StrictMode>{harness({ component: Popup, contents, record })}</StrictMode>);
    expect(record.actions).toEqual([
      [{ type: 'show_toast', text: 'Request raised successfully!', status: 'success', timer_ms: 2000 }],
    ]);
    expect(container.querySelector('[lang]')).toBeEmptyDOMElement();
  });

  it('uses 400 ms when the screen gives no timer (SPEC §9)', () => {
    const record = createHarnessRecord();
    render(
      harness({
        component: Popup,
        contents: fixtureContents<PopupContents>('popup', 'default-timer'),
        record,
      }),
    );
    expect(record.actions[0]).toEqual([
      { type: 'show_toast', text: 'Please try after some time.', status: 'warning', timer_ms: 400 },
    ]);
  });
});
