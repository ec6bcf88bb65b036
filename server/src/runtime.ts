/**
 * Starts the whole product in one process: database (PGlite or PostgreSQL), Temporal (the
 * dev server unless TEMPORAL_ADDRESS names a cluster), the payments worker and the HTTP
 * server. `stop()` undoes it in reverse so nothing is left behind: supervision ends first, the
 * HTTP server stops accepting and its requests finish, then the worker stops polling and its
 * activities finish (both within SHUTDOWN_GRACE_MS), then the connections, the chain, Temporal
 * and the database close, and last the tracer exports what it still holds.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime as TemporalRuntime, type LogLevel } from '@temporalio/worker';
import { openDatabase, readLock, type Database } from '@purser/db';
import {
  createPaymentsWorker,
  runHealthCheck,
  startTemporalDevServer,
  TASK_QUEUE,
  DEFAULT_WEBHOOK_RETRY,
  ensureTemporalCli,
  type DevServer,
  type DevServerOptions,
  settlesWithin,
} from '@purser/workflows';
import type { Hex } from 'viem';
import { buildApp } from './app';
import type { EvmChain } from './services/chain/evm-chain';
import { startChain } from './services/chain/start-chain';
import { devServerEnvironment, outboundSettings, type Env } from './env';
import { createHealthChecker, type WebhookBacklog } from './health';
import type { Logger } from './logger';
import type { Tracing } from './tracing/tracing';
import { keepWorkerRunning, type RunningWorker } from './keep-worker-running';
import { stopSupervising, supervise, type Supervisor } from './supervisor';
import { createMetrics, temporalTelemetryOptions } from './metrics/metrics';
import { metricsAccess, startMetricsServer } from './http/metrics-access';
import { loadMasterKey } from './secrets';
import { createFirstInvitation, type CreatedInvitation } from './services/invitations/create-invitation';
import { createOutboundPolicy } from './services/outbound/outbound-policy';
import { createEventBus } from './services/realtime/event-bus';
import { chooseRateLimitStore } from './http/rate-limit-store';
import { closeRateLimitRedis, openRateLimitRedis } from './http/rate-limit-store-redis';
import type { TemporalDeps } from './deps';
import { createWorkerActivities } from './worker-activities';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A poller seen this recently counts as alive; long polls last up to about a minute. */
const POLLER_FRESH_MS = 75_000;
/**
 * What a drain step gets even when SHUTDOWN_GRACE_MS is spent: an idle HTTP server or worker
 * stops in milliseconds, and is not to be reported as cut short.
 */
const MIN_DRAIN_MS = 1_000;

export interface Runtime {
  urls: { app?: string; temporalUi?: string; mcp?: string; temporal: string };
  database: Database['kind'];
  firstInvitation?: CreatedInvitation;
  stop(): Promise<void>;
}

/** `tracing`: started by the caller before anything it traces (startTracingFromEnv); stop() shuts it down last. */
export async function startRuntime(env: Env, logger: Logger, tracing?: Tracing): Promise<Runtime> {
  const cleanups: Array<() => Promise<void>> = [];
  /** Set when stop() begins: in-flight requests and activities may run until then. */
  let drainUntil = Infinity;
  const drainMs = () => Math.max(drainUntil - Date.now(), MIN_DRAIN_MS);
  const stop = async () => {
    // From here on a child that exits is stopping with the product: no restart, no warning.
    // Each is stopped below, after the worker that talks to it.
    stopSupervising();
    drainUntil = Date.now() + env.SHUTDOWN_GRACE_MS;
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        logger.error({ err: error }, 'shutdown step failed');
      }
    }
    cleanups.length = 0;
  };

  try {
    if (tracing) cleanups.push(() => tracing.shutdown());
    await mkdir(env.DATA_DIR, { recursive: true });
    routeTemporalLogs(logger, env.TEMPORAL_METRICS_PORT);

    const db = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      serveSocket: env.DATABASE_URL === undefined,
      logger,
    });
    cleanups.push(() => db.close());
    logger.info({ database: db.kind }, 'database ready');
    // Only the serving process mints the first code, so server and worker replicas do not race.
    const firstInvitation = env.RUN_SERVER ? await createFirstInvitation(db.prisma) : undefined;

    let temporalAddress = env.TEMPORAL_ADDRESS;
    let temporalUi: string | undefined;
    let temporalPorts: number[] = [];
    let devServer: Supervisor<DevServer> | undefined;
    if (temporalAddress === undefined) {
      const cliPath = env.TEMPORAL_CLI ?? (await ensureTemporalCli({ log: (message: string) => logger.info(message) }));
      let options: DevServerOptions = {
        cliPath,
        dbFile: path.join(env.DATA_DIR, 'temporal.db'),
        port: env.TEMPORAL_PORT,
        uiPort: env.TEMPORAL_UI_PORT,
        namespace: env.TEMPORAL_NAMESPACE,
        avoidPorts: [env.PORT, env.SANDBOX_CHAIN_PORT],
        env: devServerEnvironment(),
        log: (message: string) => logger.info(message),
      };
      devServer = await supervise({
        name: 'temporal dev server',
        logger,
        async start() {
          const started = await startTemporalDevServer(options);
          // A restart listens where the first start did: clients and the worker reconnect there.
          const { grpc, ui, http, metrics } = started.portsByRole;
          options = { ...options, port: grpc, uiPort: ui, httpPort: http, metricsPort: metrics };
          return started;
        },
      });
      const first = devServer.current()!;
      cleanups.push(() => devServer!.stop());
      temporalAddress = first.address;
      temporalUi = first.uiUrl;
      temporalPorts = first.ports;
    }

    const chain = await startChain(
      {
        rpcUrl: env.EVM_RPC_URL,
        network: env.EVM_NETWORK,
        facilitatorUrl: env.X402_FACILITATOR_URL,
        facilitatorPrivateKey: env.FACILITATOR_PRIVATE_KEY as Hex | undefined,
        sandboxRpcUrl: env.SANDBOX_CHAIN_RPC_URL,
        sandboxPort: env.SANDBOX_CHAIN_PORT,
        sandboxStateFile: path.join(env.DATA_DIR, 'sandbox-chain.json'),
      },
      logger,
    );
    cleanups.push(() => chain.close());
    logger.info({ network: chain.info.network, sandbox: chain.info.sandbox, rpc: chain.info.sandbox ? chain.rpcUrl : undefined }, 'chain ready');

    const connection = await Connection.connect({ address: temporalAddress });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE, ...(tracing && { interceptors: tracing.clientInterceptors }) });
    const masterKey = await loadMasterKey({ masterKey: env.MASTER_KEY, masterKeyFile: env.MASTER_KEY_FILE, dataDir: env.DATA_DIR });
    const temporal: TemporalDeps = {
      client,
      taskQueue: TASK_QUEUE,
      webhookRetry: { ...DEFAULT_WEBHOOK_RETRY, initialIntervalMs: env.WEBHOOK_RETRY_INITIAL_MS },
    };
    const outbound = createOutboundPolicy({
      ...outboundSettings(env),
      deniedLoopbackPorts: await ownServicePorts(env, { temporalAddress, temporalPorts, chain }),
    });
    logger.info({ allowLoopback: outbound.allowLoopback, allowPrivate: outbound.allowPrivate, deniedLoopbackPorts: outbound.deniedLoopbackPorts }, 'outbound policy');

    let worker: RunningWorker | undefined;
    if (env.RUN_WORKER) {
      const workerConnection = await NativeConnection.connect({ address: temporalAddress });
      /** A worker still running its activities holds the connection until the process exits. */
      let workerLeftRunning = false;
      cleanups.push(async () => {
        if (!workerLeftRunning) await workerConnection.close();
      });
      const activities = createWorkerActivities({
        db,
        logger,
        masterKey,
        outbound,
        temporal,
        chain,
        x402MaxValiditySeconds: env.X402_MAX_VALIDITY_SECONDS,
        sandboxSettlementDelayMs: env.SANDBOX_SETTLEMENT_DELAY_MS,
      });
      const running = await keepWorkerRunning(() => createPaymentsWorker({ connection: workerConnection, namespace: env.TEMPORAL_NAMESPACE, activities, tracing: tracing?.worker }), logger);
      worker = running;
      cleanups.push(async () => {
        if (await settlesWithin(running.stop(), drainMs())) return;
        // Temporal times their attempts out and runs them again after the restart; each money
        // step is idempotent, so nothing is paid twice.
        workerLeftRunning = true;
        logger.warn({ graceMs: env.SHUTDOWN_GRACE_MS }, 'activities still running after SHUTDOWN_GRACE_MS: left to Temporal to run again');
      });
      logger.info({ taskQueue: TASK_QUEUE }, 'worker running');
    }

    const health = createHealthChecker({
      db,
      logger,
      pingTemporal: async () => {
        await connection.workflowService.getSystemInfo({});
      },
      pingWorker: async () => {
        if (worker) {
          const state = worker.current()?.getState() ?? 'being replaced';
          if (state !== 'RUNNING') throw new Error(`worker is ${state}`);
          return;
        }
        await assertRemoteWorkerPolls(connection, env.TEMPORAL_NAMESPACE);
      },
      runWorkflow: async () => {
        await runHealthCheck(client);
      },
      ...(chain.info.sandbox ? { pingChain: async () => void (await chain.publicClient.getBlockNumber({ cacheTime: 0 })) } : {}),
      webhookBacklog: () => webhookBacklog(db),
      supervised: { temporal: devServer, chain: chain.sandboxProcess ?? undefined },
    });
    await health.start();
    cleanups.push(async () => health.stop());

    const publicUrl = env.PUBLIC_URL ?? `http://${listenHost(env.HOST)}:${env.PORT}`;

    // Opened before the app, so closed after it. A worker-only process limits nothing.
    const redis = env.REDIS_URL && env.RUN_SERVER ? openRateLimitRedis(env.REDIS_URL, logger) : undefined;
    if (redis) cleanups.push(() => closeRateLimitRedis(redis));
    const rateLimitStore = chooseRateLimitStore({ db, logger, redis });
    logger.info({ store: rateLimitStore.kind }, 'rate limits counted');

    let appUrl: string | undefined;
    {
      // Listens lazily, on the first subscription: a worker-only process never does.
      const events = createEventBus({ db, logger });
      // With METRICS_PORT, the app's metrics are served there, and only there.
      const metrics = env.METRICS_PORT === undefined ? undefined : createMetrics({ db, logger });
      const app = await buildApp({
        db,
        logger,
        health,
        masterKey,
        publicUrl,
        trustProxy: env.TRUST_PROXY,
        events,
        outbound,
        temporal,
        chain,
        agentRateLimitPerMinute: env.AGENT_RATE_LIMIT_PER_MINUTE,
        rateLimitStore,
        authRateLimits: { signUp: env.AUTH_RATE_LIMIT_PER_MINUTE, password: env.AUTH_RATE_LIMIT_PER_MINUTE },
        ownerRateLimits: { requests: env.OWNER_RATE_LIMIT_PER_MINUTE, searches: env.OWNER_SEARCH_RATE_LIMIT_PER_MINUTE, streams: env.OWNER_STREAM_LIMIT },
        sessionRefresh: { reuseIntervalMs: env.AUTH_REFRESH_TOKEN_REUSE_INTERVAL_SECONDS * 1000 },
        x402MaxValiditySeconds: env.X402_MAX_VALIDITY_SECONDS,
        temporalUiUrl: temporalNamespaceUrl(env.TEMPORAL_UI_URL ?? temporalUi, env.TEMPORAL_NAMESPACE),
        sandboxPaidApi: chain.info.sandbox,
        webDist: env.WEB_DIST ?? path.join(REPO_ROOT, 'web', 'dist'),
        healthOnly: !env.RUN_SERVER,
        tracing,
        operatorToken: env.OPERATOR_TOKEN,
        metricsAccess: metricsAccess(env),
        metrics,
        assistant: {
          provider: env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL, model: env.OPENAI_MODEL } : undefined,
          rateLimitPerMinute: env.ASSISTANT_RATE_LIMIT_PER_MINUTE,
          timeoutMs: env.ASSISTANT_TIMEOUT_MS,
        },
      });
      // Registered before listen: closing drains in-flight requests first, while the worker
      // still runs the payments they wait for.
      cleanups.push(async () => {
        const closed = app.close();
        // Node closes the idle keep-alive connections once, at close(); one whose request ends
        // later would stay open until its client let go of it.
        const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
        try {
          if (await settlesWithin(closed, drainMs())) return;
          logger.warn({ graceMs: env.SHUTDOWN_GRACE_MS }, 'requests still running after SHUTDOWN_GRACE_MS: closing their connections');
          app.server.closeAllConnections();
          await closed;
        } finally {
          clearInterval(closeIdle);
        }
      });
      // Runs before app.close(): ending the subscriptions ends their open responses, which
      // app.close() would otherwise wait for.
      cleanups.push(() => events.close());
      await app.listen({ host: env.HOST, port: env.PORT });
      if (env.RUN_SERVER) appUrl = publicUrl;
      if (metrics && env.METRICS_PORT !== undefined) {
        const metricsServer = await startMetricsServer({ metrics, host: env.METRICS_HOST, port: env.METRICS_PORT, logger });
        cleanups.push(() => metricsServer.close());
        logger.info({ host: env.METRICS_HOST, port: env.METRICS_PORT }, 'metrics served on their own port');
      }
    }

    return {
      urls: {
        app: appUrl,
        temporalUi,
        mcp: appUrl ? `${appUrl}/functions/v1/mcp-server` : undefined,
        temporal: temporalAddress,
      },
      database: db.kind,
      firstInvitation,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Ports of this product's own services that a loopback URL could reach: the Temporal
 * frontend, its UI, HTTP API and metrics, the database (the PGlite socket, or PostgreSQL) and the sandbox chain.
 * Outbound calls never go there, even in the sandbox where loopback is otherwise allowed.
 */
async function ownServicePorts(env: Env, started: { temporalAddress: string; temporalPorts: number[]; chain: EvmChain }): Promise<number[]> {
  // The embedded dev server's front end, UI, HTTP API and metrics; a cluster's front end.
  const ports = [Number(started.temporalAddress.split(':').pop()), ...started.temporalPorts];
  if (env.DATABASE_URL) ports.push(Number(new URL(env.DATABASE_URL).port || 5432));
  const socketPort = env.DATABASE_URL ? null : (await readLock(env.DATA_DIR))?.socketPort;
  if (socketPort) ports.push(socketPort);
  if (started.chain.info.sandbox) ports.push(Number(new URL(started.chain.rpcUrl).port || 80));
  // The Temporal SDK's metrics exporter: no upstream of an agent's is to read it.
  if (env.TEMPORAL_METRICS_PORT) ports.push(env.TEMPORAL_METRICS_PORT);
  return [...new Set(ports.filter((port) => port > 0))];
}

/** Deliveries not yet delivered: first attempts and retries (the partial index webhook_deliveries_pending). */
async function webhookBacklog(db: Database): Promise<WebhookBacklog> {
  const [row] = await db.prisma.$queryRaw<Array<{ pending: bigint; oldest: Date | null }>>`
    SELECT count(*) AS pending, min(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'`;
  const oldest = row?.oldest ?? null;
  return { pending: Number(row?.pending ?? 0), oldestPendingSeconds: oldest ? Math.max(0, Math.round((Date.now() - oldest.getTime()) / 1000)) : null };
}

async function assertRemoteWorkerPolls(connection: Connection, namespace: string): Promise<void> {
  const response = await connection.workflowService.describeTaskQueue({
    namespace,
    taskQueue: { name: TASK_QUEUE },
    taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
  });
  const now = Date.now();
  const fresh = (response.pollers ?? []).some((poller) => {
    const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
    return now - seconds * 1000 < POLLER_FRESH_MS;
  });
  if (!fresh) throw new Error(`no worker is polling task queue ${TASK_QUEUE}`);
}

const PINO_LEVEL: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * The Temporal SDK logs through pino too, so every line of the process is structured. It does
 * not listen for signals: by default it shuts every worker down at the first SIGINT or SIGTERM,
 * and any worker created after, while requests still wait for their payments; stop() shuts the
 * worker down itself, in its turn.
 */
function routeTemporalLogs(logger: Logger, metricsPort: number | undefined): void {
  const temporalLogger = logger.child({ component: 'temporal' });
  try {
    TemporalRuntime.install({
      logger: new DefaultLogger('INFO', ({ level, message, meta }) => temporalLogger[PINO_LEVEL[level]](meta ?? {}, message)),
      shutdownSignals: [],
      // The SDK's worker metrics (schedule-to-start, task slots), which GET /metrics appends.
      telemetryOptions: temporalTelemetryOptions(metricsPort),
    });
  } catch {
    // Installed already (the runtime was started before in this process): keep the first.
  }
}


/** The address a local browser uses for a listen address. */
function listenHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

/** The Temporal Web UI's page of a namespace, the base of the console's workflow links; undefined without a UI. */
function temporalNamespaceUrl(uiUrl: string | undefined, namespace: string): string | undefined {
  if (!uiUrl) return undefined;
  return `${uiUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}`;
}
