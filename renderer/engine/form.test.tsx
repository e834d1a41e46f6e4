import { act, render } from '@testing-library/react';
import jsonLogic from 'json-logic-js';
import { Provider as JotaiProvider, createStore } from 'jotai';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { JsonLogic } from '../../schemas/generated/types';
import type { FormApi } from '../../widgets/widget-props';
import { replaceForm, setFieldError, useFormApi, writeField } from './form';

/** A component that reads the form through its FormApi as `read` says, and counts its renders. */
function setup(read: (form: FormApi) => unknown) {
  const store = createStore();
  const seen: unknown[] = [];
  let api: FormApi | null = null;
  function Reader(): ReactElement {
    const form = useFormApi('s');
    api = form;
    seen.push(read(form));
    return <p>{String(seen.length)}</p>;
  }
  render(
    <JotaiProvider store={store}>
      <Reader />
    </JotaiProvider>,
  );
  const renders = () => seen.length;
  const change = (fn: () => void) => act(fn);
  return { store, seen, renders, change, api: () => api! };
}

describe('useFormApi re-renders on what its holder read', () => {
  it('a value it read, not another field', () => {
    const { store, seen, renders, change } = setup((form) => form.value('phone'));
    expect(renders()).toBe(1);
    change(() => writeField(store, 's', 'country_code', 'IN'));
    expect(renders()).toBe(1);
    change(() => writeField(store, 's', 'phone', '98'));
    expect(renders()).toBe(2);
    expect(seen.at(-1)).toBe('98');
  });

  it('an error it read', () => {
    const { store, seen, renders, change } = setup((form) => form.error('phone'));
    change(() => setFieldError(store, 's', 'email', 'Wrong'));
    expect(renders()).toBe(1);
    change(() => setFieldError(store, 's', 'phone', 'Enter a valid mobile number'));
    expect(renders()).toBe(2);
    expect(seen.at(-1)).toBe('Enter a valid mobile number');
  });

  it('the fields a rule names', () => {
    const rule: JsonLogic = { '==': [{ var: 'form.kind' }, 'hotel'] };
    const { store, seen, renders, change } = setup((form) => form.evaluate(rule));
    expect(seen).toEqual([false]);
    change(() => writeField(store, 's', 'title', 'Sea View'));
    expect(renders()).toBe(1);
    change(() => writeField(store, 's', 'kind', 'hotel'));
    expect(seen).toEqual([false, true]);
  });

  it('the fields a rule reads by name (missing), not others', () => {
    const rule: JsonLogic = { missing: ['form.kind'] };
    const { store, seen, change } = setup((form) => form.evaluate(rule));
    change(() => writeField(store, 's', 'title', 'Sea View'));
    expect(seen).toEqual([true]);
    change(() => writeField(store, 's', 'kind', 'hotel'));
    expect(seen).toEqual([true, false]);
  });

  it('the fields the last evaluation reached: a field after a false `and` once the first turns true', () => {
    const rule: JsonLogic = { and: [{ var: 'form.otp_sent' }, { '==': [{ var: 'form.otp' }, '123456'] }] };
    const { store, seen, renders, change } = setup((form) => form.evaluate(rule));
    // `otp` is not reached while `otp_sent` is false, and cannot change the result.
    change(() => writeField(store, 's', 'otp', '123456'));
    expect(renders()).toBe(1);
    change(() => writeField(store, 's', 'otp_sent', true));
    expect(seen).toEqual([false, true]);
    change(() => writeField(store, 's', 'otp', '000000'));
    expect(seen).toEqual([false, true, false]);
  });

  it('every field after a rule that lists the form', () => {
    jsonLogic.add_operation('field_count', (form: object) => Object.keys(form).length);
    try {
      const rule = { '>': [{ field_count: [{ var: 'form' }] }, 5] } as unknown as JsonLogic;
      const { store, renders, change } = setup((form) => form.evaluate(rule));
      change(() => writeField(store, 's', 'title', 'Sea View'));
      expect(renders()).toBe(2);
    } finally {
      jsonLogic.rm_operation('field_count');
    }
  });

  it('a form replaced as a whole (a draft loaded) when a field it read differs', () => {
    const { store, seen, change } = setup((form) => form.value('title'));
    change(() => replaceForm(store, 's', { title: 'Hill Top', rooms: 3 }));
    expect(seen).toEqual([undefined, 'Hill Top']);
  });

  it('keeps one FormApi for the screen, which reads the form as it is now', () => {
    const { store, change, api } = setup(() => null);
    const first = api();
    change(() => writeField(store, 's', 'title', 'Sea View'));
    expect(api()).toBe(first);
    expect(first.value('title')).toBe('Sea View');
  });
});
