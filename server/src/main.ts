/**
 * Entry point of `npm start` (and of the server and worker containers): starts the runtime,
 * prints where everything is, and shuts down cleanly on SIGTERM or SIGINT. A second signal
 * exits at once.
 */
import { EnvError, loadEnv } from './env';
import { createLogger } from './logger';
import { startRuntime } from './runtime';
import { startTracingFromEnv, traceExporters } from './tracing/tracing';

/**
 * Under `npm start` one Ctrl-C arrives twice: the terminal signals its whole foreground group,
 * npm included, and npm forwards what it received. The same signal again this soon is that
 * echo, not a person asking a second time.
 */
const ECHO_MS = 1_000;
/**
 * After SHUTDOWN_GRACE_MS the runtime cuts what still drains; closing the connections and
 * stopping the embedded Temporal server and chain then take a few seconds at most.
 */
const STOP_AFTER_GRACE_MS = 5_000;

async function main(): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Before anything it traces starts; off unless OTEL_* configures it.
  const tracing = startTracingFromEnv(env);
  const logger = createLogger(env);
  if (tracing) logger.info({ exporters: traceExporters(env) }, 'tracing on');
  const runtime = await startRuntime(env, logger, tracing).catch((error: unknown) => {
    // Through the logger, which takes the configured secret URLs out: a failed RPC call's error
    // quotes EVM_RPC_URL, key and all.
    logger.fatal({ err: error }, 'Purser could not start');
    process.exit(1);
  });

  let first: { signal: NodeJS.Signals; at: number } | undefined;
  const shutdown = (signal: NodeJS.Signals) => {
    if (first) {
      if (signal === first.signal && Date.now() - first.at < ECHO_MS) return;
      // The exit handlers of the embedded children kill them on the way out.
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    first = { signal, at: Date.now() };
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, env.SHUTDOWN_GRACE_MS + STOP_AFTER_GRACE_MS);
    force.unref();
    runtime.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  const lines = [
    '',
    'Purser is running.',
    runtime.urls.app && `  App:          ${runtime.urls.app}`,
    runtime.urls.temporalUi && `  Temporal UI:  ${runtime.urls.temporalUi}`,
    runtime.urls.mcp && `  MCP base URL: ${runtime.urls.mcp}`,
    `  Temporal:     ${runtime.urls.temporal}`,
    `  Database:     ${runtime.database === 'pglite' ? `PGlite in ${env.DATA_DIR}` : 'PostgreSQL (DATABASE_URL)'}`,
    runtime.firstInvitation &&
      `  Invitation code (first run, ${runtime.firstInvitation.maxUses} uses, expires ${runtime.firstInvitation.expiresAt.toISOString().slice(0, 10)}): ${runtime.firstInvitation.code}`,
    '',
  ].filter(Boolean);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
