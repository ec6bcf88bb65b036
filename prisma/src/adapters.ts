/**
 * Prisma driver adapter factories for PostgreSQL and PGlite, used by the product's client
 * and by migrations. Both fix how the stock adapters run a migration script:
 *
 * - @prisma/adapter-pg 7.10.1 splits the script on every ";" and sends the pieces one by one
 *   through the pool: a function body ($$ ... ; ... $$) breaks, and a failing migration
 *   leaves its first statements applied.
 * - pglite-prisma-adapter 0.7.2 starts the script without awaiting it: a failing migration
 *   is recorded as applied and its error surfaces as an unhandled rejection.
 *
 * Here the whole script goes to the server as one simple-protocol query, which PostgreSQL
 * runs as one implicit transaction: a migration applies completely or not at all.
 *
 * pglite-prisma-adapter also swallows an error raised by COMMIT, so a transaction refused by
 * a deferred constraint (an unbalanced ledger transaction) would look committed. See
 * PGliteAdapterFactory.
 */
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { DriverAdapterError, type SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { noteStatement } from './statement-count';

export class PostgresAdapterFactory extends PrismaPg {
  /** With a pool, every connect() shares it and nobody ends it but its creator. */
  constructor(configOrPool: pg.PoolConfig | pg.Pool) {
    super(configOrPool);
  }

  override async connect() {
    const adapter = countingStatements(await super.connect(), { phantomTransactions: false });
    const pool = adapter.underlyingDriver();
    adapter.executeScript = (script: string) => runScript(() => pool.query(script));
    // A connection the server drops (a restart, pg_terminate_backend) emits 'error'. The adapter
    // listens only once a transaction has its connection, a microtask after checkout; an error
    // in between would be unhandled and end the process. Every connection gets a listener from
    // its first moment instead: the query or transaction on it still fails, and is answered
    // (503, a retried activity) by its caller.
    pool.on('connect', (client) => client.on('error', () => {}));
    return adapter;
  }
}

export class PGliteAdapterFactory extends PrismaPGlite {
  readonly #pglite: PGlite;

  constructor(pglite: PGlite) {
    super(pglite);
    this.#pglite = pglite;
  }

  override async connect(): Promise<SqlDriverAdapter> {
    const adapter = countingStatements(await super.connect(), { phantomTransactions: true });
    adapter.executeScript = (script: string) => runScript(() => this.#pglite.exec(script));

    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const transaction = await startTransaction(isolationLevel);
      const commit = transaction.commit.bind(transaction);
      const rollback = transaction.rollback.bind(transaction);
      // PGlite is a single session, so the only thing that can fail at COMMIT is a deferred
      // constraint. Running those checks just before COMMIT turns their failure into an
      // ordinary query error, which reaches the caller; the transaction is then rolled back.
      transaction.commit = async () => {
        try {
          await transaction.executeRaw({ sql: 'SET CONSTRAINTS ALL IMMEDIATE', args: [], argTypes: [] });
        } catch (error) {
          await rollback();
          throw error;
        }
        return commit();
      };
      return transaction;
    };
    return adapter;
  }
}

type Queryable = Pick<SqlDriverAdapter, 'queryRaw' | 'executeRaw'>;

/** Reports each statement of `queryable` to statement-count.ts before it is sent. */
function countQueries(queryable: Queryable): void {
  const queryRaw = queryable.queryRaw.bind(queryable);
  const executeRaw = queryable.executeRaw.bind(queryable);
  queryable.queryRaw = (query) => {
    noteStatement(query.sql);
    return queryRaw(query);
  };
  queryable.executeRaw = (query) => {
    noteStatement(query.sql);
    return executeRaw(query);
  };
}

/**
 * The adapter with every statement counted, its transactions' too. BEGIN is sent inside
 * startTransaction, out of reach: it is counted there. PGlite's adapter begins and ends a
 * transaction itself ("phantom" queries Prisma never sees), so its COMMIT and ROLLBACK are
 * counted here too; PostgreSQL's COMMIT comes through executeRaw.
 */
function countingStatements<A extends SqlDriverAdapter>(adapter: A, { phantomTransactions }: { phantomTransactions: boolean }): A {
  countQueries(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => {
    noteStatement('BEGIN');
    const transaction = await startTransaction(isolationLevel);
    countQueries(transaction);
    if (phantomTransactions) {
      const commit = transaction.commit.bind(transaction);
      const rollback = transaction.rollback.bind(transaction);
      transaction.commit = () => {
        noteStatement('COMMIT');
        return commit();
      };
      transaction.rollback = () => {
        noteStatement('ROLLBACK');
        return rollback();
      };
    }
    return transaction;
  };
  return adapter;
}

async function runScript(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    throw toDriverAdapterError(error);
  }
}

/** Database errors become the shape Prisma reports (code, message, detail, hint). */
function toDriverAdapterError(error: unknown): unknown {
  const e = error as { code?: unknown; severity?: unknown; message?: unknown; detail?: string; column?: string; hint?: string };
  if (typeof e?.code !== 'string' || typeof e.message !== 'string') return error;
  return new DriverAdapterError({
    kind: 'postgres',
    code: e.code,
    severity: typeof e.severity === 'string' ? e.severity : 'ERROR',
    message: e.message,
    detail: e.detail,
    column: e.column,
    hint: e.hint,
  });
}
