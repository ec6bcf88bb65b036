/**
 * The package as it is published: tsup builds dist/ (here into a scratch directory), which is
 * installed into a consumer project outside the monorepo (no sources, no @purser/core), where an
 * ES module and a CommonJS module type-check against it under Node's own module resolution and
 * then run. And the runtime stays free of core and zod, whose types alone it uses.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SDK_ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = join(SDK_ROOT, '..');

/** Exercises the public surface with an injected fetch: a 503, then the payment. */
const consumer = (importLine: string) => `${importLine}

const sent: string[] = [];
const answers = [
  new Response(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'try again' } }), { status: 503 }),
  new Response(JSON.stringify({ intent_id: 'i-1', status: 'settled' }), { status: 200 }),
];
const agent = new PurserAgentClient({
  baseUrl: 'http://purser.test',
  did: 'did:agnic:00000000-0000-4000-8000-000000000000',
  apiKey: 'pak_x',
  fetch: async (_url, init) => {
    sent.push(new Headers(init?.headers).get('idempotency-key') ?? '');
    return answers.shift()!;
  },
  sleep: async () => {},
});

async function main(): Promise<void> {
  const paid = await agent.pay({ amount: 1, to_address: 'merchant' });
  const status: 'created' | 'settled' | string = paid.status;
  const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
  const timestamp = Math.floor(Date.now() / 1000);
  const payload = JSON.stringify({ id: 'evt_1', type: 'intent.created', createdAt: '', data: {} });
  const event = verifyWebhook({ payload, secret, headers: { 'webhook-id': 'evt_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook({ id: 'evt_1', timestamp, payload, secret }) } });
  let code = '';
  try {
    new PurserOwnerClient({ baseUrl: 'not a url', token: 't' });
  } catch (error) {
    code = error instanceof TypeError ? 'TypeError' : 'other';
  }
  const apiError = new PurserApiError({ status: 422, code: 'INSUFFICIENT_FUNDS', message: 'm', requestId: undefined, operationId: 'agentPayment', idempotencyKey: undefined, retryAfterMs: undefined, body: null });
  console.log(JSON.stringify({ status, keys: sent, sameKey: sent[0] === sent[1], event: event.type, code, isError: apiError instanceof PurserError }));
}

void main();
`;

let scratch: string;
let dist: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'purser-sdk-package-'));
  dist = join(scratch, 'dist');
  const build = spawnSync(join(REPO_ROOT, 'node_modules', '.bin', 'tsup'), ['--out-dir', dist], { cwd: SDK_ROOT, encoding: 'utf8' });
  expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
}, 240_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the built package', () => {
  it('has ESM and CommonJS bundles with declarations, and the exports point at them', () => {
    expect(readdirSync(dist).sort()).toEqual(expect.arrayContaining(['index.cjs', 'index.d.cts', 'index.d.ts', 'index.js']));
    const manifest = JSON.parse(readFileSync(join(SDK_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; files: string[] };
    expect(manifest.exports['.']).toMatchObject({
      import: { types: expect.arrayContaining(['./dist/index.d.ts']), default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
    expect(manifest.files).toContain('dist');
  });

  it('imports nothing at run time but node:crypto, and its declarations nothing but zod', () => {
    const imports = (file: string, pattern: RegExp) => [...readFileSync(join(dist, file), 'utf8').matchAll(pattern)].map((match) => match[1]).sort();
    expect(imports('index.js', /^import .* from ['"]([^'"]+)['"]/gm)).toEqual(['crypto']);
    expect(imports('index.cjs', /require\(['"]([^'"]+)['"]\)/g)).toEqual(['crypto']);
    expect(new Set(imports('index.d.ts', /from ['"]([^'"]+)['"]/g))).toEqual(new Set(['zod']));
  });

  it('type-checks and runs from an ES module and a CommonJS module of a project outside the monorepo', () => {
    const project = join(scratch, 'consumer');
    const installed = join(project, 'node_modules', '@purser', 'sdk');
    mkdirSync(installed, { recursive: true });
    cpSync(dist, join(installed, 'dist'), { recursive: true });
    cpSync(join(SDK_ROOT, 'package.json'), join(installed, 'package.json'));
    symlinkSync(join(REPO_ROOT, 'node_modules', 'zod'), join(project, 'node_modules', 'zod'), 'dir');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const names = 'PurserAgentClient, PurserApiError, PurserError, PurserOwnerClient, signWebhook, verifyWebhook';
    writeFileSync(join(project, 'esm.mts'), consumer(`import { ${names} } from '@purser/sdk';`));
    writeFileSync(join(project, 'cjs.cts'), consumer(`import { ${names} } from '@purser/sdk';`));

    const program = ts.createProgram([join(project, 'esm.mts'), join(project, 'cjs.cts')], {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
      outDir: project,
    });
    const emitted = program.emit();
    const problems = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
    // The CommonJS module resolved the require condition, the ES module the import condition.
    const resolvedTypes = (from: string, mode: ts.ResolutionMode) =>
      ts.resolveModuleName('@purser/sdk', join(project, from), { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }, ts.sys, undefined, undefined, mode)
        .resolvedModule?.resolvedFileName;
    expect(resolvedTypes('esm.mts', ts.ModuleKind.ESNext)).toBe(join(installed, 'dist', 'index.d.ts'));
    expect(resolvedTypes('cjs.cts', ts.ModuleKind.CommonJS)).toBe(join(installed, 'dist', 'index.d.cts'));

    for (const file of ['esm.mjs', 'cjs.cjs']) {
      const run = spawnSync(process.execPath, [join(project, file)], { cwd: project, encoding: 'utf8' });
      expect(run.status, `${file}: ${run.stderr}`).toBe(0);
      const result = JSON.parse(run.stdout) as { keys: string[] };
      expect(result).toMatchObject({ status: 'settled', sameKey: true, event: 'intent.created', code: 'TypeError', isError: true });
      expect(result.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    }
  }, 120_000);
});

describe('the sources', () => {
  it('run from another workspace with the @purser/source condition, no build needed', () => {
    const dir = join(REPO_ROOT, 'node_modules', '.cache', 'purser-sdk-source');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      writeFileSync(
        join(dir, 'probe.ts'),
        "import { OPERATIONS, PurserOwnerClient } from '@purser/sdk';\nconsole.log(JSON.stringify({ client: typeof PurserOwnerClient, path: OPERATIONS.getWallet.path, from: import.meta.resolve('@purser/sdk') }));\n",
      );
      const run = spawnSync(process.execPath, ['--conditions=@purser/source', '--import', 'tsx', join(dir, 'probe.ts')], { cwd: REPO_ROOT, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ client: 'function', path: '/wallet', from: expect.stringMatching(/\/sdk\/src\/index\.ts$/) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('import @purser/core and zod for types only, so the runtime carries neither', () => {
    const sources = readdirSync(join(SDK_ROOT, 'src')).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(sources.length).toBeGreaterThan(5);
    const valueImports = sources.flatMap((file) =>
      [...readFileSync(join(SDK_ROOT, 'src', file), 'utf8').matchAll(/^import (?!type )[^;]*from '(@purser\/core[^']*|zod)'/gm)].map((match) => `${file}: ${match[1]}`),
    );
    expect(valueImports).toEqual([]);
  });
});
