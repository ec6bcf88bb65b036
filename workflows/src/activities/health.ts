// Activities: the only place workflows reach I/O. They come from a factory that takes their
// dependencies, so tests and the product hand in real (or stub) pieces.

/**
 * What the activities need from the database module. Structural on purpose: `Database`
 * from `@purser/db` satisfies it without this workspace depending on its internals.
 */
export interface ActivityDatabase {
  readonly kind: 'postgres' | 'pglite';
  /** Runs a trivial query (SELECT 1); rejects when the database is unreachable. */
  ping(): Promise<void>;
}

export interface DatabaseHealth {
  kind: ActivityDatabase['kind'];
  /** Round trip of the ping, in milliseconds. */
  latencyMs: number;
  checkedAt: string;
}

export function createHealthActivities(db: ActivityDatabase) {
  return {
    async checkDatabase(): Promise<DatabaseHealth> {
      const started = performance.now();
      await db.ping();
      const latencyMs = Math.round((performance.now() - started) * 100) / 100;
      return { kind: db.kind, latencyMs, checkedAt: new Date().toISOString() };
    },
  };
}
