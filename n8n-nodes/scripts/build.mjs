// Builds the package the way `n8n-node build` does: compile nodes and credentials to CommonJS
// in dist/, then copy the icons and codex files (*.node.json) beside the compiled code.
// `node scripts/build.mjs [folder]` builds another copy of the package (the lint's staged copy).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const dist = join(packageDir, 'dist');
rmSync(dist, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir, stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

const STATIC = /\.(svg|png|json)$/;
for (const folder of ['icons', 'nodes', 'credentials']) {
  for (const file of readdirSync(join(packageDir, folder), { recursive: true })) {
    if (!STATIC.test(file)) continue;
    const target = join(dist, folder, file);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(packageDir, folder, file), target);
  }
}
process.stderr.write(`built ${dist}\n`);
