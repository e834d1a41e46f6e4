import { describe, expect, it } from 'vitest';
import { isRecord } from './is-record';

describe('isRecord', () => {
  it('accepts a JSON object, with or without properties', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ field: 'phone' })).toBe(true);
    expect(isRecord(JSON.parse('{"widget_type":"input"}'))).toBe(true);
  });

  it('refuses null, arrays and every other JSON value', () => {
    for (const value of [null, undefined, [], [{}], 'text', 0, true]) expect(isRecord(value)).toBe(false);
  });
});
