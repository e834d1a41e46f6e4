/**
 * Performance tracing of the BFF (issue 15 item 4), loaded before the server with
 * `node --import ./dist/server/instrument.js dist/server/server.js` (what `npm run serve` runs): the hooks
 * that let OpenTelemetry's instrumentations wrap `node:http`, Fastify and `pg` must be in place before those
 * modules load. When tracing is off ({@link tracingSettings}: no endpoint, staging, or disabled) this module
 * imports nothing else: zero cost.
 */
import { register } from 'node:module';
import { tracingSettings } from './settings';

const settings = tracingSettings();
if (settings.enabled) {
  // ESM modules are wrapped through import-in-the-middle's loader hook (CommonJS ones through require hooks).
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  // A separate file (dist/server/tracing.js), named at run time so the bundler leaves it out of this one: its
  // packages load only when tracing is on, after the hook above.
  const tracingModule = './tracing.js';
  const { startTracing } = (await import(tracingModule)) as typeof import('./tracing');
  startTracing(settings);
}
