/**
 * Entry point of `npm start` (and of the server and worker containers): starts the runtime,
 * prints where everything is, and shuts down cleanly on SIGTERM or SIGINT.
 */
import { EnvError, loadEnv } from './env';
import { createLogger } from './logger';
import { startRuntime } from './runtime';

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
  const logger = createLogger(env);
  const runtime = await startRuntime(env, logger);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, env.SHUTDOWN_GRACE_MS);
    force.unref();
    runtime.stop().then(
      () => process.exit(0),
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
