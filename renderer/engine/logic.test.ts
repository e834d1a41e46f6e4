import { describe, expect, it } from 'vitest';
import { evaluateCondition, resolveDeep, resolveValue } from './logic';

const data = { form: { title: 'Sea View', version: 3, rooms: 12 }, response: { data: { id: 'PO1' } } };

describe('resolveDeep', () => {
  it('walks plain objects that are not rules, resolving the rules inside', () => {
    const body = {
      data: { title: { var: 'form.title' }, total_rooms: { var: 'form.rooms' } },
      version: { var: 'form.version' },
      draft: false,
    };
    expect(resolveDeep(body, data)).toEqual({
      data: { title: 'Sea View', total_rooms: 12 },
      version: 3,
      draft: false,
    });
  });

  it('walks a one-key object whose key is no operation, at any depth', () => {
    expect(resolveDeep({ data: { title: { var: 'form.title' } } }, data)).toEqual({
      data: { title: 'Sea View' },
    });
    expect(resolveDeep({ property_unique_id: { var: 'response.data.id' } }, data)).toEqual({
      property_unique_id: 'PO1',
    });
  });

  it('evaluates rules, walks arrays and keeps literals', () => {
    expect(resolveDeep({ cat: ['#', { var: 'form.rooms' }] }, data)).toBe('#12');
    expect(resolveDeep([{ var: 'form.version' }, 'x', 1, null], data)).toEqual([3, 'x', 1, null]);
    expect(resolveDeep('plain', data)).toBe('plain');
    expect(resolveDeep(null, data)).toBeNull();
  });

  it('leaves resolveValue and evaluateCondition as they were', () => {
    expect(resolveValue({ var: 'form.title' }, data)).toBe('Sea View');
    expect(evaluateCondition({ '==': [{ var: 'form.rooms' }, 12] }, data)).toBe(true);
  });
});
