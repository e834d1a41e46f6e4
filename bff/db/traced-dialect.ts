import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { withDriver } from './dialect-with-driver';

const tracer = trace.getTracer('property-onboard-db');

/** The statement's first keyword (SELECT, INSERT, …) for the span's name, as OpenTelemetry's pg spans do. */
const operationOf = (sql: string) => /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';

/** A connection whose every query is a client span (`db.system.name` postgresql, the SQL without its values). */
class TracedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly namespace: string,
  ) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const operation = operationOf(query.sql);
    return tracer.startActiveSpan(
      `${operation} ${this.namespace}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system.name': 'postgresql',
          'db.namespace': this.namespace,
          'db.operation.name': operation,
          // Parameterised: the values (phone numbers, names) never leave the server.
          'db.query.text': query.sql,
        },
      },
      async (span) => {
        try {
          return await this.inner.executeQuery<R>(query);
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
          throw err;
        } finally {
          span.end();
        }
      },
    );
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** A driver handing out {@link TracedConnection}s; everything else is the inner driver's. */
class TracedDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, TracedConnection>();
  constructor(
    private readonly inner: Driver,
    private readonly namespace: string,
  ) {}
  init() {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await this.inner.acquireConnection();
    let traced = this.wrapped.get(conn);
    if (!traced) {
      traced = new TracedConnection(conn, this.namespace);
      this.wrapped.set(conn, traced);
    }
    return traced;
  }
  private unwrap(conn: DatabaseConnection): DatabaseConnection {
    return conn instanceof TracedConnection ? conn.inner : conn;
  }
  beginTransaction(conn: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(this.unwrap(conn), settings);
  }
  commitTransaction(conn: DatabaseConnection) {
    return this.inner.commitTransaction(this.unwrap(conn));
  }
  rollbackTransaction(conn: DatabaseConnection) {
    return this.inner.rollbackTransaction(this.unwrap(conn));
  }
  releaseConnection(conn: DatabaseConnection) {
    return this.inner.releaseConnection(this.unwrap(conn));
  }
  destroy() {
    return this.inner.destroy();
  }
}

/**
 * `dialect` with a client span per query (issue 15 item 4), for PGlite, which no OpenTelemetry
 * instrumentation knows (PostgreSQL's `pg` is traced by `@opentelemetry/instrumentation-pg`). Spans go to the
 * registered tracer provider; without one (tracing off) the API's no-op tracer makes them cost next to
 * nothing, but the caller wraps only when tracing is on.
 */
export function tracedDialect(dialect: Dialect, namespace = 'pglite'): Dialect {
  return withDriver(dialect, (inner) => new TracedDriver(inner, namespace));
}
