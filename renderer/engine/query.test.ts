import { describe, expect, it } from 'vitest';
import { queryFromSearch, queryStrings, withQuery } from './query';

describe('withQuery', () => {
  it('appends URL-encoded parameters with ? or &', () => {
    expect(withQuery('/task', { property_unique_id: 'PO1A2B3C4D5E' })).toBe(
      '/task?property_unique_id=PO1A2B3C4D5E',
    );
    expect(withQuery('/task/details?x=1', { task: 'basic info', q: 'a&b=c' })).toBe(
      '/task/details?x=1&task=basic+info&q=a%26b%3Dc',
    );
    expect(withQuery('/task?', { a: '1' })).toBe('/task?a=1');
  });

  it('keeps a hash at the end and leaves `to` alone without parameters', () => {
    expect(withQuery('/task#top', { a: 'ä' })).toBe('/task?a=%C3%A4#top');
    expect(withQuery('/task', undefined)).toBe('/task');
    expect(withQuery('/task', {})).toBe('/task');
  });
});

describe('queryFromSearch / queryStrings', () => {
  it('decodes a search string, the last value winning', () => {
    expect(queryFromSearch('?property_unique_id=PO1&task=basic_info&x=a%20b&x=c')).toEqual({
      property_unique_id: 'PO1',
      task: 'basic_info',
      x: 'c',
    });
    expect(queryFromSearch('')).toEqual({});
  });

  it('turns values into strings and leaves out null and undefined', () => {
    expect(queryStrings({ a: 'x', n: 3, b: true, o: { k: 1 }, gone: null, missing: undefined })).toEqual({
      a: 'x',
      n: '3',
      b: 'true',
      o: '{"k":1}',
    });
  });
});
