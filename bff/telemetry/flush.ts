import { trace } from '@opentelemetry/api';

/**
 * Sends the spans still batched to the collector (issue 15 item 4), so a closing server loses none; resolves
 * at once when tracing is off (the API's no-op provider). Never rejects: a collector that cannot be reached
 * must not stop a shutdown.
 */
export async function flushTraces(): Promise<void> {
  const proxy = trace.getTracerProvider() as { getDelegate?: () => unknown };
  const provider = (proxy.getDelegate?.() ?? proxy) as { forceFlush?: () => Promise<void> };
  await provider.forceFlush?.().catch(() => {});
}
