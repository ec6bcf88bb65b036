/**
 * The docs' manual install (n8n → Install) in an empty n8n user folder: the shell block is taken
 * from the markdown and run as written, with the packed tarball in place of the package's name
 * (the registry does not have this working tree's version). The user folder sits inside another
 * project's folder, with a package.json of its own, as in the trial that found npm installing
 * there: the block must make the package land in `~/.n8n/nodes`. Then a real n8n (2.8.4,
 * offline) starts on that folder and loads both nodes and both credentials, and, as the page
 * says, does not list the package under Settings → Community Nodes.
 *
 * The first run installs n8n into the cache (scripts/n8n.mjs): minutes, hence the long hooks.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docRecipe, fillIn } from '@purser/server/testing';
import { packPackage, startN8nIn, type N8n, type N8nServer } from './support/n8n';

const run = promisify(execFile);
const SETUP_TIMEOUT_MS = 30 * 60_000;

let workDir: string;
let project: string;
let home: string;
let installed: { stdout: string; stderr: string };
let n8n: N8n | undefined;
let server: N8nServer | undefined;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'purser-n8n-install-'));
  const tarball = await packPackage(workDir);
  project = join(workDir, 'someone-elses-project');
  home = join(project, 'home');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'someone-elses-project', private: true }));

  const steps = fillIn(await docRecipe('n8n', 'Install', 'sh'), { 'npm install n8n-nodes-purser ': `npm install ${tarball} ` });
  installed = await run('sh', ['-e', '-c', steps], {
    cwd: workDir,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      // Offline: the tarball has no dependencies, and --legacy-peer-deps leaves n8n-workflow to n8n.
      npm_config_offline: 'true',
      npm_config_cache: join(workDir, 'npm-cache'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
  });
  n8n = await startN8nIn(home);
  server = await n8n.serve();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
  n8n?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 120_000);

describe("the docs' manual install", () => {
  it("puts the package into the user folder's nodes folder, and nothing into the project above it", () => {
    const nodes = join(home, '.n8n', 'nodes');
    const manifest = JSON.parse(readFileSync(join(nodes, 'node_modules', 'n8n-nodes-purser', 'package.json'), 'utf8')) as { name: string };
    expect(manifest.name, `${installed.stdout}\n${installed.stderr}`).toBe('n8n-nodes-purser');
    expect(Object.keys((JSON.parse(readFileSync(join(nodes, 'package.json'), 'utf8')) as { dependencies: object }).dependencies)).toEqual(['n8n-nodes-purser']);
    // n8n brings n8n-workflow; a second copy beside the package would be the one it loads.
    expect(existsSync(join(nodes, 'node_modules', 'n8n-workflow'))).toBe(false);
    expect(existsSync(join(project, 'node_modules'))).toBe(false);
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))).toEqual({ name: 'someone-elses-project', private: true });
  });

  it('gives an n8n that loads both nodes and both credentials', async () => {
    const nodes = await server!.get<Array<{ name: string }>>('/types/nodes.json');
    const credentials = await server!.get<Array<{ name: string }>>('/types/credentials.json');
    expect(nodes.map((node) => node.name)).toEqual(expect.arrayContaining(['n8n-nodes-purser.purser', 'n8n-nodes-purser.purserTrigger']));
    expect(credentials.map((credential) => credential.name)).toEqual(expect.arrayContaining(['purserApi', 'purserOwnerApi']));
  });

  it('is not listed under Settings → Community Nodes, which lists only what n8n installed itself', async () => {
    expect(await server!.get<{ data: unknown[] }>('/rest/community-packages')).toEqual({ data: [] });
  });
});
