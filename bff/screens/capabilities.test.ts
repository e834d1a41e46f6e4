import { describe, expect, it } from 'vitest';
import type { ScreenPayload } from '../../schemas/generated/types';
import { capabilityKey, fitToClient, knownWidgetTypes, parseCapabilities } from './capabilities';

const payload: ScreenPayload = {
  screen_id: 'demo',
  schema_version: 1,
  widget_list: [
    { id: 'title', widget_type: 'text', contents: { text: 'Hello' } },
    {
      id: 'table',
      widget_type: 'table',
      contents: { rows: [] },
      fallback: { id: 'table_text', widget_type: 'text', contents: { text: 'See the table in the app' } },
    },
    { id: 'gallery', widget_type: 'photo_gallery', contents: {}, fallback: 'drop' },
    { id: 'map', widget_type: 'map_pin', contents: {} },
    {
      id: 'chain',
      widget_type: 'referral_header',
      contents: {},
      fallback: {
        id: 'chain_card',
        widget_type: 'property_card',
        contents: {},
        fallback: { id: 'chain_text', widget_type: 'text', contents: { text: 'Invite a friend' } },
      },
    },
  ],
};

describe('capabilities (issue 16 item 4)', () => {
  it('without x-widget-types, the payload is sent as composed (today’s behaviour)', () => {
    const caps = parseCapabilities(undefined, '1');
    expect(caps).toBeNull();
    expect(fitToClient(payload, caps)).toBe(payload);
    expect(capabilityKey(caps, knownWidgetTypes)).toBe('');
  });

  it('an older client gets the fallback of a widget it cannot draw, or nothing', () => {
    const older = parseCapabilities('text, button ,input', '1');
    const fitted = fitToClient(payload, older);
    expect(fitted.widget_list.map((w) => [w.id, w.widget_type])).toEqual([
      ['title', 'text'],
      ['table_text', 'text'],
      // photo_gallery: fallback drop; map_pin: no fallback → dropped. referral_header → its fallback's fallback.
      ['chain_text', 'text'],
    ]);
    // The payload itself is left as it was (a public screen's composed copy may be shared).
    expect(payload.widget_list).toHaveLength(5);
  });

  it('a client that draws a widget keeps it, with only a fallback it can draw', () => {
    const fitted = fitToClient(payload, parseCapabilities('text,table,referral_header,map_pin', '1'));
    expect(fitted.widget_list.map((w) => w.id)).toEqual(['title', 'table', 'map', 'chain']);
    expect(fitted.widget_list[1]!.fallback).toMatchObject({ id: 'table_text' });
    // property_card is not drawn: the fallback chain skips to the text.
    expect(fitted.widget_list[3]!.fallback).toMatchObject({ id: 'chain_text' });
    const noText = fitToClient(payload, parseCapabilities('table', '1'));
    expect(noText.widget_list).toEqual([{ id: 'table', widget_type: 'table', contents: { rows: [] } }]);
  });

  it('keys the cache by the known types the client draws, so junk and order do not split it', () => {
    const a = parseCapabilities('text,button,NOT A TYPE,made_up', '1');
    const b = parseCapabilities('button,text', undefined);
    expect(capabilityKey(a, knownWidgetTypes)).toBe(capabilityKey(b, knownWidgetTypes));
    expect(capabilityKey(a, knownWidgetTypes)).toBe('1:text,button');
    expect(capabilityKey(parseCapabilities('text', '2'), knownWidgetTypes)).toBe('2:text');
  });
});
