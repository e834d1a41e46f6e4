import catalogue from './data/analytics-events.json' with { type: 'json' };
import { isRecord } from '../../schemas/app/is-record';

/** The name of an event listed in bff/screens/data/analytics-events.json (issue 15 item 8). */
export type AnalyticsEventName = keyof typeof catalogue.events;

/** An event of the catalogue: who sends it and the properties it may carry (name → what it holds). */
export interface CatalogueEvent {
  description: string;
  source: 'browser' | 'definition' | 'server';
  properties: Record<string, string>;
  /** A path of the composer's data whose value names this event at run time (its default is the key). */
  name_from?: string;
}

/** Every event of the catalogue by name. */
export const analyticsEvents: Readonly<Record<string, CatalogueEvent>> = catalogue.events as Record<
  string,
  CatalogueEvent
>;

/** One problem of an analytics block: where (JSON path of the definition) and what. */
export interface BlockProblem {
  path: string;
  detail: string;
}

/**
 * The catalogue events an `event` of a block can be, as the definition writes it: a literal; both
 * branches of an `$if`; or a `{$bind: path}` whose path an event declares as its `name_from` (e.g. the
 * location permission event named by flags.location_data_config.gaEventName, SPEC §3), checked as that
 * event. Anything else (another `$bind`, a `$logic`) cannot be checked: null.
 */
function literalNames(event: unknown): string[] | null {
  if (typeof event === 'string') return [event];
  if (isRecord(event) && '$if' in event) {
    const branches = [literalNames(event.then), literalNames(event.else)];
    return branches.some((b) => b === null) ? null : (branches.flat() as string[]);
  }
  if (isRecord(event) && typeof event.$bind === 'string') {
    const bound = Object.entries(analyticsEvents).find(([, e]) => e.name_from === event.$bind);
    return bound ? [bound[0]] : null;
  }
  return null;
}

/**
 * Checks every `analytics` block of a definition (after its fragments are in place) against the catalogue
 * (issue 15 item 8): an event name written in the definition (or bound from a catalogue event's
 * `name_from`) must be listed, and each property it sends must be one the listed event carries; a name
 * the check cannot read is refused. Answers the first problem, or null. Pure.
 */
export function analyticsBlockProblem(value: unknown, path = ''): BlockProblem | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const problem = analyticsBlockProblem(value[i], `${path}/${i}`);
      if (problem) return problem;
    }
    return null;
  }
  if (!isRecord(value)) return null;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'analytics' && isRecord(child)) {
      const names = literalNames(child.event);
      if (names === null)
        return {
          path: `${path}/analytics/event`,
          detail:
            "analytics event name is neither written out nor bound from a catalogue event's name_from in bff/screens/data/analytics-events.json",
        };
      for (const name of names) {
        const listed = analyticsEvents[name];
        if (!listed)
          return {
            path: `${path}/analytics/event`,
            detail: `unknown analytics event '${name}': list it in bff/screens/data/analytics-events.json`,
          };
        for (const property of Object.keys(isRecord(child.properties) ? child.properties : {})) {
          if (!Object.hasOwn(listed.properties, property))
            return {
              path: `${path}/analytics/properties/${property}`,
              detail: `analytics event '${name}' carries no property '${property}' in bff/screens/data/analytics-events.json`,
            };
        }
      }
      continue;
    }
    const problem = analyticsBlockProblem(child, `${path}/${key}`);
    if (problem) return problem;
  }
  return null;
}
