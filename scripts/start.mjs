// `npm start`: installs what is missing, builds what is stale, then runs the whole product
// (database, Temporal, worker, server) in this process. See README.md.
//
// `npm run start:server` and `npm run start:worker` (this script with `server` or `worker`) run
// one role each, as the containers of docker-compose.yml do: any number of either, on one
// PostgreSQL (DATABASE_URL) and one Temporal (TEMPORAL_ADDRESS). docs/production.md.
import { ensureDependencies, ensurePrismaClient, ensureWebBuild, ensureWorkflowBundle, ensureBuilt } from './ensure.mjs';

const ROLES = {
  server: { env: { RUN_SERVER: 'true', RUN_WORKER: 'false' }, build: [ensurePrismaClient, ensureWebBuild] },
  worker: { env: { RUN_SERVER: 'false', RUN_WORKER: 'true' }, build: [ensurePrismaClient, ensureWorkflowBundle] },
};

const roleName = process.argv[2];
const role = roleName === undefined ? undefined : ROLES[roleName];
if (roleName !== undefined && !role) {
  console.error(`Unknown role "${roleName}": use server or worker (or nothing, for the whole product).`);
  process.exit(1);
}
if (role) {
  // The embedded PGlite database and Temporal dev server live in one process: a role alone
  // would start a second, private copy of each that no other process shares.
  const missing = ['DATABASE_URL', 'TEMPORAL_ADDRESS'].filter((name) => !process.env[name]);
  if (missing.length > 0) {
    console.error(
      `npm run start:${roleName} runs one role against a shared PostgreSQL and Temporal: set ${missing.join(' and ')} (docs/production.md). ` +
        'For everything in one process on embedded defaults, run npm start.',
    );
    process.exit(1);
  }
  // Every server and worker shares one master key (server/src/env.ts, MASTER_KEY_REQUIRED): one
  // generated here would be this process's alone, and nothing another encrypted would decrypt.
  if (!process.env.MASTER_KEY && !process.env.MASTER_KEY_FILE) {
    console.error(
      `npm run start:${roleName} needs the deployment's master key: set MASTER_KEY (base64 of 32 bytes, e.g. openssl rand -base64 32) ` +
        'or MASTER_KEY_FILE, the same on every server and worker (docs/production.md, "Keys"). Only npm start generates one.',
    );
    process.exit(1);
  }
  Object.assign(process.env, role.env);
}

await ensureDependencies();
if (role) for (const build of role.build) await build();
else await ensureBuilt();

// tsx is installed by now; loading it here keeps one process between npm and the server.
const { register } = await import('tsx/esm/api');
register();
await import('../server/src/main.ts');
