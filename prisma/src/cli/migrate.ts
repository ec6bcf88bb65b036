/**
 * `npm run db:migrate`: applies the committed migrations to DATABASE_URL, or else to the
 * PGlite under DATA_DIR (default .data/), through the running product's socket when it holds
 * the files. The product also migrates on start; this is for deploys and for checking.
 */
import { openDatabaseForTool, type Logger } from '../index';
import { loadCliEnv } from './env';

const logger: Logger = {
  info: (obj, msg) => console.log(msg ?? '', JSON.stringify(obj)),
  warn: (obj, msg) => console.warn(msg ?? '', JSON.stringify(obj)),
};

const env = loadCliEnv();
const database = await openDatabaseForTool({ ...env, migrate: true, logger });
await database.close();
