// Runs a TypeScript entry point after making sure dependencies and the Prisma client exist:
// `node scripts/run-ts.mjs server/src/cli/invite.ts --uses 3`.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureDependencies, ensurePrismaClient } from './ensure.mjs';
import { ROOT } from './lib.mjs';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  process.stderr.write('usage: node scripts/run-ts.mjs <file.ts> [args...]\n');
  process.exit(2);
}
await ensureDependencies();
await ensurePrismaClient();
const { register } = await import('tsx/esm/api');
register();
process.argv = [process.argv[0], path.resolve(ROOT, entry), ...args];
await import(pathToFileURL(path.resolve(ROOT, entry)).href);
