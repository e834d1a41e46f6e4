import { createContext, useContext } from 'react';
import type {
  AnalyticsBlock,
  AppPath,
  Locale,
  ToastStatus,
  UserDetails,
} from '../../schemas/generated/types';
import type { QueryParams } from './query';
import { analyticsProperties } from './analytics-blocks';

/** A toast request from an action or the engine; `timer_ms` in ms (the shell applies the SPEC §9 default). */
export interface HostToast {
  text: string;
  status: ToastStatus;
  timer_ms?: number;
}

/**
 * What the engine needs from the shell (routes, session, toasts, language). The shell provides it through
 * {@link ShellHostContext}; the engine never imports the shell.
 */
export interface ShellHost {
  /**
   * Goes to an app path relative to /propertyOnboard (e.g. '/dashboard'); the shell adds the country segment
   * and appends `query` (strings, URL-encoded by the shell with `withQuery` of engine/query.ts).
   */
  navigate(to: AppPath, options?: { replace?: boolean; query?: QueryParams }): void;
  /** Goes back one page when the previous page is in the app, else to `fallback` (an app path). */
  goBack(fallback: AppPath): void;
  /** Queues a toast. */
  toast(toast: HostToast): void;
  /** SPEC §4 sign-out: server call, storage cleared, sign-up page. Resolves false on failure (toast shown). */
  signOut(): Promise<boolean>;
  /** SPEC §4 after sign-in: store the user, set logged in, go to the remembered target or /propertyOnboard. */
  sessionStarted(user: UserDetails): void;
  /** Switches and remembers the language (SPEC §1). */
  setLanguage(locale: Locale): Promise<void>;
  /** The current screen's payload asks to hide the footer (ScreenPayload.hide_footer). */
  setFooterHidden(hidden: boolean): void;
  /**
   * Queues an analytics event (SPEC §9, issue 15): snake_case name, scalar non-personal properties, the
   * screen it happened on. Optional: without it (stories, isolated tests) events are not sent.
   */
  logEvent?(event: string, properties?: Record<string, unknown>, screenId?: string): void;
}

/** A host that does nothing: used when no shell is mounted (stories, isolated tests). */
export const NOOP_HOST: ShellHost = {
  navigate: () => undefined,
  goBack: () => undefined,
  toast: () => undefined,
  signOut: async () => true,
  sessionStarted: () => undefined,
  setLanguage: async () => undefined,
  setFooterHidden: () => undefined,
};

/** React context carrying the {@link ShellHost}; defaults to {@link NOOP_HOST}. */
export const ShellHostContext = createContext<ShellHost>(NOOP_HOST);

/** The shell's host functions. */
export function useShellHost(): ShellHost {
  return useContext(ShellHostContext);
}

/**
 * Sends an analytics block of a definition (issue 15 item 1) through `host.logEvent`, with its rules read
 * over `response` (./analytics-blocks). Nothing without a block or a queue.
 */
export function sendAnalyticsBlock(
  host: ShellHost,
  block: AnalyticsBlock | undefined,
  screenId: string,
  response?: unknown,
): void {
  if (block) host.logEvent?.(block.event, analyticsProperties(block, response), screenId);
}

/**
 * An endpoint as an event property: its path with id segments (any segment with 3 or more digits, e.g. a
 * property_unique_id 'PO…' or a UUID) replaced by `:id`, so that events group by route
 * ('/hms_ms/api/v1/onboard/leads/:id/publish').
 */
export function endpointTemplate(endpoint: string): string {
  // The analytics queue cuts the value to 200 characters.
  return endpoint.split('?', 1)[0]!.replace(/[^/]*\d[^/]*\d[^/]*\d[^/]*/g, ':id');
}
