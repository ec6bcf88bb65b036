/**
 * What n8n users install: the packed package holds the build and its papers, nothing else, and
 * declares itself the way n8n's community node loader and its verification expect; packing it
 * builds it, so a clean checkout packs a working package.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = join(PACKAGE_DIR, '..');
const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  scripts: Record<string, string>;
  license: string;
  private?: boolean;
  publishConfig?: Record<string, unknown>;
  n8n: { n8nNodesApiVersion: number; nodes: string[]; credentials: string[] };
};

let packed: string[];

beforeAll(async () => {
  await run(process.execPath, [join(PACKAGE_DIR, 'scripts', 'build.mjs')], { cwd: PACKAGE_DIR });
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PACKAGE_DIR });
  const [result] = JSON.parse(stdout) as Array<{ name: string; files: Array<{ path: string }> }>;
  expect(result?.name).toBe('n8n-nodes-purser');
  packed = result!.files.map((file) => file.path).sort();
}, 120_000);

describe('the packed n8n-nodes-purser', () => {
  it('holds only dist/, README.md, CHANGELOG.md, LICENSE and package.json', () => {
    const outside = packed.filter((path) => !path.startsWith('dist/') && !['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json'].includes(path));
    expect(outside).toEqual([]);
    expect(packed).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json']));
  });

  it('is publishable with provenance, as n8n requires of verified community nodes', () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
  });

  it('ships compiled JavaScript and the icons, and no sources or tests', () => {
    expect(packed.filter((path) => /\.test\.|\/test\/|\/src\/|(?<!\.d)\.ts$/.test(path))).toEqual([]);
    expect(packed).toEqual(
      expect.arrayContaining(['dist/icons/purser.svg', 'dist/icons/purser.dark.svg', 'dist/nodes/Purser/Purser.node.json', 'dist/nodes/PurserTrigger/PurserTrigger.node.json']),
    );
  });

  it('lists in its n8n section the nodes and the credentials it ships', () => {
    expect(manifest.n8n.n8nNodesApiVersion).toBe(1);
    expect(manifest.n8n.nodes).toEqual(['dist/nodes/Purser/Purser.node.js', 'dist/nodes/PurserTrigger/PurserTrigger.node.js']);
    expect(manifest.n8n.credentials).toEqual(['dist/credentials/PurserApi.credentials.js', 'dist/credentials/PurserOwnerApi.credentials.js']);
    for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) expect(packed).toContain(entry);
  });

  it('has no runtime dependencies, n8n-workflow as its only peer, and the MIT licence', () => {
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(PACKAGE_DIR, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it('has the scripts every workspace has', () => {
    for (const script of ['build', 'dev', 'lint', 'typecheck', 'test']) expect(manifest.scripts[script], script).toBeTruthy();
  });

  it('builds dist/ when packed from a clean checkout, with no build before it', async () => {
    // The package's files as a clone has them (tracked, or new and not ignored: never dist/), in a
    // folder inside the repository, so the build finds TypeScript and n8n-workflow in the root's
    // node_modules as it does after `npm ci` in a clone.
    const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', 'n8n-nodes'], { cwd: REPO_ROOT });
    const files = stdout.split('\0').filter((file) => file && existsSync(join(REPO_ROOT, file)));
    expect(files.some((file) => file.startsWith('n8n-nodes/dist/'))).toBe(false);
    const cache = join(REPO_ROOT, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const clone = mkdtempSync(join(cache, 'n8n-nodes-clean-'));
    try {
      for (const file of files) {
        mkdirSync(dirname(join(clone, file)), { recursive: true });
        cpSync(join(REPO_ROOT, file), join(clone, file));
      }
      const checkout = join(clone, 'n8n-nodes');
      expect(existsSync(join(checkout, 'dist'))).toBe(false);
      const packed = await run('npm', ['pack', '--json', '--pack-destination', clone], { cwd: checkout });
      const [tarball] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
      const listed = (await run('tar', ['-tzf', join(clone, tarball!.filename)])).stdout.split('\n').filter(Boolean);
      for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials, 'dist/icons/purser.svg']) expect(listed).toContain(`package/${entry}`);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  }, 180_000);
});
