/**
 * `npm start` as a newcomer runs it: the whole product on a fresh DATA_DIR, stopped with
 * SIGTERM sent to npm itself, started again on the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabaseForTool } from '@purser/db';
import { freePorts } from '../../scripts/lib.mjs';
import { isAlive } from './support/product-processes';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CODE = /^PURSER-[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}$/;
const dataDir = mkdtempSync(path.join(tmpdir(), 'purser-start-'));
const OPERATOR_TOKEN = 'operator-token-of-the-start-test-0123456789';

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  output: () => string;
  appUrl: string;
}

async function productEnv() {
  const [port, temporalPort, temporalUiPort, chainPort] = await freePorts(4);
  return {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(temporalUiPort),
    SANDBOX_CHAIN_PORT: String(chainPort),
    TEMPORAL_CLI: process.env.TEMPORAL_CLI_PATH,
    DATABASE_URL: '',
    TEMPORAL_ADDRESS: '',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: 'false',
    OPERATOR_TOKEN,
  };
}

async function start(): Promise<Started> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: await productEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const appUrl = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /App:\s+(http\S+)/.exec(output);
      if (match?.[1]) {
        clearInterval(timer);
        resolve(match[1]);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`npm start exited with ${child.exitCode}:\n${output}`));
      }
    }, 100);
  });
  return { child, output: () => output, appUrl };
}

/** Every process whose parent chain leads to `root`, read from /proc. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [pid, ppid] of parents) {
      if (ppid === parent) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

async function stop(started: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.on('exit', (code) => resolve(code)));
  started.child.kill('SIGTERM');
  return exited;
}

function runInvite(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/run-ts.mjs'), 'server/src/cli/invite.ts', '--uses', '3', '--expires', '7d'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm start', () => {
  let firstCode = '';
  let inviteCode = '';

  it('serves the landing page and a healthy /healthz, printing the URLs and a first invitation code', async () => {
    const started = await start();
    try {
      const health = await fetch(`${started.appUrl}/healthz`);
      expect(health.status).toBe(200);
      const report = (await health.json()) as { checks: Record<string, { status: string }> };
      expect(Object.fromEntries(Object.entries(report.checks).map(([name, check]) => [name, check.status]))).toEqual({
        database: 'up',
        temporal: 'up',
        worker: 'up',
        chain: 'up',
        webhooks: 'up',
      });
      // The deep check runs a workflow end to end: the operator's alone.
      expect((await fetch(`${started.appUrl}/healthz?deep=true`)).status).toBe(401);
      const deep = await fetch(`${started.appUrl}/healthz?deep=true`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
      expect(deep.status).toBe(200);

      const landing = await fetch(`${started.appUrl}/`);
      expect(landing.status).toBe(200);
      // Pre-rendered: the landing page's heading is in the HTML before any script runs.
      const html = await landing.text();
      expect(html).toContain('<div id="root" data-prerendered-path="/">');
      expect(html).toMatch(/<h1[^>]*>[^<]+/);

      expect(started.output()).toMatch(/Temporal UI:\s+http:\/\/127\.0\.0\.1:\d+/);
      expect(started.output()).toContain(`MCP base URL: ${started.appUrl}/functions/v1/mcp-server`);
      firstCode = /Invitation code[^:]*: (\S+)/.exec(started.output())?.[1] ?? '';
      expect(firstCode).toMatch(CODE);

      // The invite tool reaches the PGlite database through the running product.
      const invite = await runInvite();
      expect(invite.code, invite.stderr).toBe(0);
      inviteCode = invite.stdout.trim().split('\n').at(-1) ?? '';
      expect(inviteCode).toMatch(CODE);
    } finally {
      await stop(started);
    }
  });

  it('leaves no process running after SIGTERM', async () => {
    const started = await start();
    const pid = started.child.pid ?? 0;
    const children = descendants(pid);
    expect(children.length).toBeGreaterThan(0); // the Temporal dev server at least
    expect(await stop(started)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(children.filter(isAlive)).toEqual([]);
    expect(started.output()).not.toMatch(/Invitation code/);
  });

  it('keeps its data across restarts', async () => {
    const db = await openDatabaseForTool({ dataDir });
    try {
      expect(await db.prisma.invitationCode.count()).toBe(2);
    } finally {
      await db.close();
    }
    expect(firstCode).not.toBe(inviteCode);
  });
});
