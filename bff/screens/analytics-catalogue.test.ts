import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedAjv } from '../../schemas/ajv';
import catalogue from './data/analytics-events.json' with { type: 'json' };
import { analyticsBlockProblem, analyticsEvents } from './analytics-catalogue';
import { checkDefinition } from './composer';
import { ScreenDefinitionError } from './definition-error';

const root = join(import.meta.dirname, '..', '..');
const noFragments = () => undefined;

describe('the analytics event catalogue (issue 15 item 8)', () => {
  it('follows its schema', () => {
    const validate = sharedAjv().getSchema('data/analytics-events.schema.json');
    expect(validate, 'schema registered').toBeDefined();
    expect(validate!(catalogue), JSON.stringify(validate!.errors)).toBe(true);
  });

  it('lists the events the browser sends by itself', () => {
    // The shell's footer tabs and the engine's screen_view and submit events name them in code.
    const sources = [
      'renderer/shell/footer.tsx',
      'renderer/engine/dispatcher.ts',
      'renderer/engine/screen.tsx',
    ]
      .map((f) => readFileSync(join(root, f), 'utf8'))
      .join('\n');
    const named = [...sources.matchAll(/'(screen_view|footer_[a-z_]+_click|submit_(?:success|error))'/g)].map(
      (m) => m[1]!,
    );
    expect(new Set(named).size).toBeGreaterThanOrEqual(5);
    for (const name of named) expect(analyticsEvents[name]?.source, name).toBe('browser');
  });

  const withBlock = (analytics: unknown) => ({
    screen_id: 'probe',
    widget_list: [{ id: 'a', widget_type: 'text', contents: { text: 'x' }, analytics }],
  });

  it('lets a definition send a listed event with its listed properties, a name chosen by $if, or a bound name', () => {
    expect(
      analyticsBlockProblem(withBlock({ event: 'checklist_task_add', properties: { task: 'kyc' } })),
    ).toBeNull();
    expect(
      analyticsBlockProblem(
        withBlock({ event: { $if: { var: 'x' }, then: 'checklist_task_edit', else: 'checklist_task_add' } }),
      ),
    ).toBeNull();
    expect(
      analyticsBlockProblem(withBlock({ event: { $bind: 'flags.location_data_config.gaEventName' } })),
    ).toBeNull();
  });

  it('refuses an unknown event or property, naming the JSON path, when a definition is checked', () => {
    expect(analyticsBlockProblem(withBlock({ event: 'checklist_tapped' }))).toEqual({
      path: '/widget_list/0/analytics/event',
      detail: "unknown analytics event 'checklist_tapped': list it in bff/screens/data/analytics-events.json",
    });
    expect(
      analyticsBlockProblem(
        withBlock({ event: { $if: true, then: 'checklist_task_add', else: 'checklist_task_removed' } }),
      )?.detail,
    ).toMatch(/unknown analytics event 'checklist_task_removed'/);
    expect(
      analyticsBlockProblem(withBlock({ event: 'checklist_task_add', properties: { colour: 'red' } })),
    ).toEqual({
      path: '/widget_list/0/analytics/properties/colour',
      detail:
        "analytics event 'checklist_task_add' carries no property 'colour' in bff/screens/data/analytics-events.json",
    });
    // A name bound from anywhere but a catalogue event's name_from cannot be checked: refused.
    expect(analyticsBlockProblem(withBlock({ event: { $bind: 'user.first_name' } }))).toEqual({
      path: '/widget_list/0/analytics/event',
      detail:
        "analytics event name is neither written out nor bound from a catalogue event's name_from in bff/screens/data/analytics-events.json",
    });
    expect(analyticsBlockProblem(withBlock({ event: { $logic: { var: 'flags.x' } } }))?.path).toBe(
      '/widget_list/0/analytics/event',
    );
    // The bound location permission name is checked as the location_permission event.
    expect(
      analyticsBlockProblem(
        withBlock({ event: { $bind: 'flags.location_data_config.gaEventName' }, properties: { lat: 1 } }),
      )?.detail,
    ).toMatch(/analytics event 'location_permission' carries no property 'lat'/);
    let error: unknown;
    try {
      checkDefinition('probe.json', withBlock({ event: 'checklist_tapped' }), noFragments, 'probe');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ScreenDefinitionError);
    expect((error as ScreenDefinitionError).path).toBe('/widget_list/0/analytics/event');
  });
});
