// Generates the Prisma client into src/generated (git-ignored).
//   node scripts/generate.mjs              always regenerate
//   node scripts/generate.mjs --if-stale   only when missing or older than schema.prisma
//   add --optional to warn instead of failing when the prisma CLI is not installed (postinstall)
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schema = path.join(workspaceDir, 'schema.prisma');
const client = path.join(workspaceDir, 'src', 'generated', 'client.ts');
const ifStale = process.argv.includes('--if-stale');
const optional = process.argv.includes('--optional');

if (ifStale && existsSync(client) && statSync(client).mtimeMs >= statSync(schema).mtimeMs) process.exit(0);

let cli;
try {
  cli = createRequire(import.meta.url).resolve('prisma/build/index.js');
} catch {
  const message = 'The prisma CLI is not installed, so the Prisma client cannot be generated.';
  if (optional) {
    console.warn(`warning: ${message}`);
    process.exit(0);
  }
  console.error(message);
  process.exit(1);
}

const result = spawnSync(process.execPath, [cli, 'generate'], {
  cwd: workspaceDir,
  stdio: 'inherit',
  // generate needs no schema-engine binary, and none is downloaded on an offline machine.
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || '/bin/true' },
});
process.exit(result.status ?? 1);
