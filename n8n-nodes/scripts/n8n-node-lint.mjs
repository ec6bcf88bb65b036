// n8n's own checks for community node packages, offline:
//   1. `n8n-node lint` of @n8n/node-cli, in strict mode (n8n's unmodified ESLint config), and
//   2. the static analysis of @n8n/scan-community-package, the check behind n8n's
//      verification, on the sources and on the packed tarball. Its CLI first downloads the
//      published package and its provenance from the registry; here the same analysis runs on
//      this working tree instead.
//
// Both run on a staged copy of what the package is made of (package.json, README, LICENSE,
// icons, nodes, credentials) next to the cached tools of scripts/n8n.mjs, because:
//   - the tools cannot be devDependencies here: every @n8n/node-cli release pulls an
//     n8n-workflow whose isolated-vm needs Node 22+, avoidable only with an `overrides` entry
//     in the repository's root package.json;
//   - strict mode wants the package's eslint.config.mjs to be n8n's template, and an
//     eslint.config.mjs in this folder would replace the repository's ESLint config for the
//     tests here (ESLint 10 looks up the config nearest to each file), which the n8n rules
//     reject (they forbid Node builtins and `process`, which tests need).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureN8nNodeCli } from '../../scripts/n8n.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (message) => process.stderr.write(`[n8n-node lint] ${message}\n`);

const tools = await ensureN8nNodeCli({ log });
const work = mkdtempSync(join(tmpdir(), 'n8n-nodes-purser-lint-'));
let failed = false;
try {
  const stage = join(work, 'n8n-nodes-purser');
  mkdirSync(stage);
  for (const entry of ['package.json', 'README.md', 'LICENSE', 'tsconfig.build.json', 'icons', 'nodes', 'credentials']) {
    cpSync(join(packageDir, entry), join(stage, entry), { recursive: true });
  }
  cpSync(join(packageDir, 'tsconfig.build.json'), join(stage, 'tsconfig.json'));
  const template = join(tools, 'node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs');
  writeFileSync(join(stage, 'eslint.config.mjs'), readFileSync(template));
  symlinkSync(join(tools, 'node_modules'), join(stage, 'node_modules'), 'dir');

  log(`linting a copy of the package in ${stage}`);
  const lint = spawnSync(process.execPath, [join(tools, 'node_modules/@n8n/node-cli/bin/n8n-node.mjs'), 'lint'], {
    cwd: stage,
    stdio: 'inherit',
    // `npm exec eslint` must find the cached ESLint, never download one.
    env: { ...process.env, npm_config_offline: 'true', npm_config_yes: 'false', CI: 'true' },
  });
  if (lint.status === 0) {
    log('n8n-node lint (strict): no problems');
  } else {
    failed = true;
    log(`n8n-node lint failed (exit ${lint.status}); paths above are in the copy, the same below n8n-nodes/`);
  }

  const scanner = await import(pathToFileURL(join(tools, 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs')).href);
  const build = spawnSync(process.execPath, [join(packageDir, 'scripts/build.mjs'), stage], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build of the copy failed');
  // Built just above: the copy has no scripts/ for the package's prepack to run.
  const pack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: stage, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const tarball = join(work, JSON.parse(pack.stdout)[0].filename);
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);

  for (const [leg, dir, patterns] of [
    ['sources', stage, scanner.SOURCE_FILE_PATTERNS],
    ['packed tarball', unpacked, ['**/*.js', 'package.json']],
  ]) {
    const result = await scanner.analyzePackage(dir, patterns);
    if (result.passed) {
      log(`scan-community-package analysis of the ${leg}: passed`);
    } else {
      failed = true;
      log(`scan-community-package analysis of the ${leg}: FAILED: ${result.message}\n${result.details ?? ''}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
else log('passed');
