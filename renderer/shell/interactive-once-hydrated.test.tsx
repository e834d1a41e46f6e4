import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InteractiveOnceHydrated } from './app';

const form = (serverDrawn: boolean) => (
  <InteractiveOnceHydrated serverDrawn={serverDrawn}>
    <input aria-label="Mobile number" />
    <button type="button">Get OTP</button>
  </InteractiveOnceHydrated>
);

describe('InteractiveOnceHydrated', () => {
  it("disables the server's markup, and enables the very same controls once React has hydrated them", async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(form(true));
    document.body.append(container);
    const input = container.querySelector('input')!;
    const fieldset = container.querySelector('fieldset')!;
    expect(fieldset.disabled).toBe(true);
    expect(input.matches(':disabled')).toBe(true);
    expect(container.querySelector('button')!.matches(':disabled')).toBe(true);
    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, form(true), { onRecoverableError: (error) => errors.push(error) });
    });
    expect(errors).toEqual([]);
    expect(container.querySelector('input')).toBe(input);
    expect(fieldset.disabled).toBe(false);
    expect(input.matches(':disabled')).toBe(false);
    // Not a group for assistive technology: the wrapper is there for the browser alone.
    expect(fieldset.getAttribute('role')).toBe('none');
    container.remove();
  });

  it('adds nothing around a page the client draws', () => {
    const { container } = render(form(false));
    expect(container.querySelector('fieldset')).toBeNull();
    expect(container.querySelector('input')!.matches(':disabled')).toBe(false);
  });
});
