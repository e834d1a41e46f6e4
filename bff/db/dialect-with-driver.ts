import type { Dialect, Driver } from 'kysely';

/** `dialect` whose driver is `wrap(its own driver)`; everything else (adapter, compiler, introspector) is its own. */
export function withDriver(dialect: Dialect, wrap: (inner: Driver) => Driver): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => wrap(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
