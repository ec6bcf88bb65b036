// `npm start`: installs what is missing, builds what is stale, then runs the whole product
// (database, Temporal, worker, server) in this process. See README.md.
import { ensureBuilt, ensureDependencies } from './ensure.mjs';

await ensureDependencies();
await ensureBuilt();

// tsx is installed by now; loading it here keeps one process between npm and the server.
const { register } = await import('tsx/esm/api');
register();
await import('../server/src/main.ts');
