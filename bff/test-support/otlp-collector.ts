import { createServer, type Server } from 'node:http';

/** One span of an OTLP/HTTP JSON export request (the fields tests read). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client. */
  kind: number;
  attributes?: { key: string; value: { stringValue?: string } }[];
}

/** OTLP's SpanKind values read by tests. */
export const SPAN_KIND = { server: 2, client: 3 } as const;

/** A span received, with the `service.name` of the resource that sent it. */
export interface ReceivedSpan {
  service: string;
  span: OtlpSpan;
}

/** A loopback stand-in of an OpenTelemetry collector (OTLP/HTTP, JSON) for tests. */
export interface OtlpCollector {
  /** Its base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`): spans are posted to `<url>/v1/traces`. */
  url: string;
  /** Every span received so far, in order. */
  spans: ReceivedSpan[];
  /** `method path content-type` of every request received. */
  requests: string[];
  close(): Promise<void>;
}

/** The string value of attribute `key` of a span, or undefined. */
export const attributeOf = (span: OtlpSpan, key: string): string | undefined =>
  span.attributes?.find((a) => a.key === key)?.value.stringValue;

/**
 * Starts a collector stand-in on 127.0.0.1 (`port`, default any free one) that answers 200 to every export
 * and keeps the spans it was sent (issue 15 item 4 tests).
 */
export async function startOtlpCollector(port = 0): Promise<OtlpCollector> {
  const spans: ReceivedSpan[] = [];
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: {
          resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
          scopeSpans: { spans: OtlpSpan[] }[];
        }[];
      };
      for (const r of body.resourceSpans) {
        const service =
          r.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const s of r.scopeSpans) for (const span of s.spans) spans.push({ service, span });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${bound}`,
    spans,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
