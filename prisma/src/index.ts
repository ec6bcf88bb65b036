/**
 * The one Prisma client module. Without a database URL the product keeps its data in an
 * on-disk PGlite under `<dataDir>/pglite`; with one it uses PostgreSQL. Either way the
 * committed migrations are applied on open.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { ITXClientDenyList } from '@prisma/client/runtime/client';
import pg from 'pg';
import { PrismaClient as GeneratedPrismaClient, type Currency, type Prisma } from './generated/client';
import { claimLock, isProcessAlive, readLock, releaseLock, updateLock } from './lock';
import { applyMigrations } from './migrations';
import { PGliteAdapterFactory, PostgresAdapterFactory } from './adapters';
import { noteStatement } from './statement-count';
import { serveSocket, type SocketServer } from './pglite-socket';
import type { Logger } from './logger';
import { PgListener, type ListenOptions } from './pg-listener';

export * from './generated/enums';
export type { ListenOptions } from './pg-listener';
export { Prisma } from './generated/client';
export type {
  Agent,
  AgentApiKey,
  AgentKey,
  AgentTransaction,
  AgentWallet,
  Approval,
  AuditEvent,
  IdempotencyRecord,
  InvitationCode,
  LedgerAccount,
  LedgerEntry,
  LedgerTransaction,
  OwnerApiKey,
  OwnerTransaction,
  OwnerWallet,
  PaymentIntent,
  Policy,
  Session,
  SpendingRules,
  User,
  WebhookDelivery,
  WebhookEndpoint,
} from './generated/client';

/**
 * Columns holding password hashes, token hashes and encrypted key material are left out of
 * every query result unless a query selects them by name (`select: { passwordHash: true }`)
 * or lifts the omission (`omit: { passwordHash: false }`).
 */
export const secretColumns = {
  user: { passwordHash: true },
  session: { refreshTokenHash: true },
  ownerApiKey: { keyHash: true },
  agentApiKey: { keyHash: true },
  agentKey: { ciphertext: true, iv: true, tag: true },
  webhookEndpoint: { secretCiphertext: true, secretIv: true, secretTag: true, previousSecretCiphertext: true, previousSecretIv: true, previousSecretTag: true },
  oauthToken: { tokenHash: true },
  oauthAuthorizationRequest: { codeHash: true },
  paymentSessionApprovalLink: { tokenHash: true },
} as const satisfies Prisma.GlobalOmitConfig;

/** The configured client: the generated PrismaClient with secretColumns omitted. */
export type PrismaClient = GeneratedPrismaClient<never, typeof secretColumns>;
/**
 * What `prisma.$transaction(async (tx) => ...)` hands to its callback. Prisma types that
 * parameter without the omitted columns (they are still omitted at run time), so annotate
 * it: `$transaction(async (tx: TransactionClient) => ...)`.
 */
export type TransactionClient = Omit<PrismaClient, ITXClientDenyList>;

export type { Logger } from './logger';
/** The lock a running product holds on its data folder (`npm start` reports who holds it). */
export { readLock } from './lock';
export { countStatements, statementsSent } from './statement-count';
export { applyMigrations, migrationsDir } from './migrations';
/** Prisma's driver adapters, for tests that open a client on a pool or PGlite of their own. */
export { PGliteAdapterFactory, PostgresAdapterFactory } from './adapters';

export type Database = {
  prisma: PrismaClient;
  /** Where the data lives. A tool reaching a running product's PGlite through its socket gets 'pglite'. */
  kind: 'postgres' | 'pglite';
  ping(): Promise<void>;
  /**
   * LISTEN on a channel: onPayload receives the payload of each NOTIFY once its transaction
   * commits (rolled-back ones are never heard). Resolves once listening; the function it
   * resolves to stops. PostgreSQL: one dedicated connection per process, re-opened when it
   * drops (see ListenOptions.onReconnect). PGlite: in-process. Not available to a tool
   * reaching PGlite through the product's socket.
   */
  listen(channel: string, onPayload: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  /**
   * One statement sent straight to the driver (node-postgres' pool, or PGlite), past Prisma's
   * client: for the read every agent API request starts with, where Prisma's own work cost more
   * CPU than the database's (docs/performance.md). `text` takes $1..$n. Each driver parses
   * values its own way, so select only text and booleans (cast the rest: `bigint::text`); the
   * statement is counted like Prisma's (statement-count.ts).
   */
  query<Row>(text: string, values: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
};

export type OpenDatabaseOptions = {
  databaseUrl?: string;
  dataDir: string;
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  /** PGlite only: serve the database on 127.0.0.1 so command-line tools can reach it. */
  serveSocket?: boolean;
  logger?: Logger;
};

const silentLogger: Logger = { info() {}, warn() {} };

/** Opens the product's database; with PGlite, this process becomes the owner of the files. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const logger = options.logger ?? silentLogger;
  const migrate = options.migrate ?? true;
  if (options.databaseUrl) return openPostgres(options.databaseUrl, { migrate, logger });

  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  await claimLock(dataDir, (stale) => logger.warn({ stale, dataDir }, 'Taking over the PGlite lock of a process that no longer runs'));
  let pglite: PGlite | undefined;
  try {
    const pgliteDir = path.join(dataDir, 'pglite');
    const started = Date.now();
    pglite = await PGlite.create({ dataDir: pgliteDir });
    logger.info({ dataDir: pgliteDir, ms: Date.now() - started }, 'PGlite opened');

    let socket: SocketServer | undefined;
    const opened = pglite;
    const database = await wrapPglite(opened, {
      migrate,
      logger,
      async onClose() {
        await socket?.stop();
        await opened.close();
        await releaseLock(dataDir);
      },
    });
    // Served only once migrated, so a tool never sees a half-built schema.
    if (options.serveSocket) {
      socket = await serveSocket(opened);
      logger.info({ port: socket.port }, 'PGlite socket serving on 127.0.0.1');
    }
    await updateLock(dataDir, { pid: process.pid, socketPort: socket?.port ?? null });
    return database;
  } catch (error) {
    await pglite?.close().catch(() => {});
    await releaseLock(dataDir);
    throw error;
  }
}

/**
 * Opens the database for a command-line tool while the product may be running: PostgreSQL
 * when a URL is given; else the running product's PGlite through its socket; else, when
 * nothing holds them, the PGlite files themselves.
 */
export async function openDatabaseForTool(options: {
  databaseUrl?: string;
  dataDir: string;
  migrate?: boolean;
  logger?: Logger;
}): Promise<Database> {
  const logger = options.logger ?? silentLogger;
  const migrate = options.migrate ?? true;
  if (options.databaseUrl) return openPostgres(options.databaseUrl, { migrate, logger });

  const dataDir = path.resolve(options.dataDir);
  const lock = await readLock(dataDir);
  if (lock && isProcessAlive(lock.pid)) {
    if (lock.socketPort === null) {
      throw new Error(`The PGlite database in ${dataDir} is held by process ${lock.pid}, which serves no socket; stop it first.`);
    }
    logger.info({ pid: lock.pid, port: lock.socketPort }, 'Reaching PGlite through the running process');
    // pglite-socket accepts any user and database name but only one client at a time, so the
    // migrations and the client share a single connection that stays open until close().
    const pool = new pg.Pool({
      connectionString: `postgresql://postgres@127.0.0.1:${lock.socketPort}/postgres`,
      max: 1,
      idleTimeoutMillis: 0,
    });
    try {
      const database = await openPostgres(pool, { migrate, logger });
      return {
        ...database,
        kind: 'pglite',
        async close() {
          await database.close();
          await pool.end();
        },
      };
    } catch (error) {
      await pool.end();
      throw error;
    }
  }
  return openDatabase({ dataDir, migrate, logger });
}

async function openPostgres(connection: string | pg.Pool, options: { migrate: boolean; logger: Logger }): Promise<Database> {
  if (options.migrate) await migrateWith(new PostgresAdapterFactory(typeof connection === 'string' ? { connectionString: connection } : connection), options.logger);
  // Prisma and query() share one pool; a pool handed in is ended by whoever made it.
  const pool = typeof connection === 'string' ? new pg.Pool({ connectionString: connection }) : connection;
  // An idle connection the server ends (a restart, a terminated backend) is an 'error' on the
  // pool, which throws when nobody listens. Prisma's adapter listens only while connected, and
  // stops listening at $disconnect, before the pool ends: this listener stays for the pool's life.
  pool.on('error', (error) => options.logger.warn({ err: error }, 'an idle PostgreSQL connection was closed by the server'));
  const prisma = createClient(new PostgresAdapterFactory(pool));
  const listener = typeof connection === 'string' ? new PgListener(connection, options.logger) : undefined;
  return {
    prisma,
    kind: 'postgres',
    ping: () => ping(prisma),
    listen(channel, onPayload, listenOptions) {
      if (!listener) return Promise.reject(new Error('LISTEN is not supported on a tool connection through the PGlite socket'));
      return listener.listen(channel, onPayload, listenOptions);
    },
    async query<Row>(text: string, values: unknown[]) {
      noteStatement(text);
      return (await pool.query(text, values)).rows as Row[];
    },
    async close() {
      await listener?.close();
      await prisma.$disconnect();
      if (pool !== connection) await pool.end();
    },
  };
}

async function wrapPglite(
  pglite: PGlite,
  options: { migrate: boolean; logger: Logger; onClose(): Promise<void> },
): Promise<Database> {
  const adapter = new PGliteAdapterFactory(pglite);
  if (options.migrate) await migrateWith(adapter, options.logger);
  const prisma = createClient(adapter);
  return {
    prisma,
    kind: 'pglite',
    ping: () => ping(prisma),
    // PGlite is this process's own session: notifications arrive in-process, nothing to reconnect.
    async listen(channel, onPayload) {
      const unlisten = await pglite.listen(channel, onPayload);
      let listening = true;
      return async () => {
        if (!listening || pglite.closed) return;
        listening = false;
        await unlisten();
      };
    },
    async query<Row>(text: string, values: unknown[]) {
      noteStatement(text);
      return (await pglite.query<Row>(text, values)).rows;
    },
    async close() {
      await prisma.$disconnect();
      await options.onClose();
    },
  };
}

/** For @purser/db/testing: an already created PGlite (in memory, say) as a Database. */
export function openPgliteInstance(pglite: PGlite, options: { migrate?: boolean; logger?: Logger } = {}): Promise<Database> {
  return wrapPglite(pglite, {
    migrate: options.migrate ?? true,
    logger: options.logger ?? silentLogger,
    onClose: () => pglite.close(),
  });
}

async function migrateWith(adapter: SqlMigrationAwareDriverAdapterFactory, logger: Logger): Promise<void> {
  const started = Date.now();
  const applied = await applyMigrations(adapter);
  logger.info({ applied, ms: Date.now() - started }, applied.length ? 'Database migrations applied' : 'Database schema is up to date');
}

/** A client on PostgreSQL with a pool of its own (`max` connections), configured as the product's. */
export function createPostgresClient(connectionString: string, { max }: { max?: number } = {}): PrismaClient {
  return createClient(new PostgresAdapterFactory({ connectionString, ...(max === undefined ? {} : { max }) }));
}

function createClient(adapter: PostgresAdapterFactory | PGliteAdapterFactory): PrismaClient {
  return new GeneratedPrismaClient({ adapter, omit: secretColumns });
}

async function ping(prisma: PrismaClient): Promise<void> {
  await prisma.$queryRaw`SELECT 1`;
}

/**
 * The ledger account standing for the world outside the platform, one per currency, created
 * by the guards migration. Deposits are debited to it, payouts credited; only it may go negative.
 */
export const EXTERNAL_ACCOUNT_IDS = {
  USDC: '00000000-0000-7000-8000-000000000001',
  USDT: '00000000-0000-7000-8000-000000000002',
} as const satisfies Record<Currency, string>;

// ---------------------------------------------------------------- select helpers
// What may leave the server about each record. Key material, hashes and encrypted secrets
// are never part of these.

export const userPublicSelect = {
  id: true,
  email: true,
  fullName: true,
  createdAt: true,
} as const satisfies Prisma.UserSelect;

export const ownerWalletSelect = {
  id: true,
  userId: true,
  balanceUsdc: true,
  balanceUsdt: true,
} as const satisfies Prisma.OwnerWalletSelect;

export const agentWalletSelect = {
  id: true,
  balanceUsdc: true,
  balanceUsdt: true,
  walletAddress: true,
  evmWalletAddress: true,
  blockchainNetwork: true,
} as const satisfies Prisma.AgentWalletSelect;

export const spendingRulesSelect = {
  maxTransactionAmount: true,
  maxDailyLimit: true,
  approvalThreshold: true,
} as const satisfies Prisma.SpendingRulesSelect;

/** An agent as the dashboard and the connect page read it: with its wallet and spending rules. */
export const agentSelect = {
  id: true,
  ownerId: true,
  name: true,
  description: true,
  did: true,
  status: true,
  kyaTier: true,
  verifiableCredential: true,
  createdAt: true,
  wallet: { select: agentWalletSelect },
  spendingRules: { select: spendingRulesSelect },
} as const satisfies Prisma.AgentSelect;

export const agentKeyPublicSelect = {
  id: true,
  agentId: true,
  purpose: true,
  publicKey: true,
  createdAt: true,
  revokedAt: true,
} as const satisfies Prisma.AgentKeySelect;

export const apiKeyPublicSelect = {
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const satisfies Prisma.OwnerApiKeySelect & Prisma.AgentApiKeySelect;

/** An owner API key as its owner sees it: the public columns, what it may do and until when. */
export const ownerApiKeyPublicSelect = {
  ...apiKeyPublicSelect,
  scopes: true,
  expiresAt: true,
} as const satisfies Prisma.OwnerApiKeySelect;

export const webhookEndpointPublicSelect = {
  id: true,
  url: true,
  events: true,
  enabled: true,
  createdAt: true,
} as const satisfies Prisma.WebhookEndpointSelect;
