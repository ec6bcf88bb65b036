/**
 * The package as it is published: tsup builds dist/ (here into a scratch copy of the package),
 * `npm pack` makes the tarball npm would publish, and `npm install <tarball>` puts it into an
 * empty project outside the monorepo (no sources, no @purser/core; zod and standardwebhooks from
 * the machine's npm cache, offline), where an ES module and a CommonJS module type-check against
 * it under Node's own module resolution and then run. And the runtime stays free of core and
 * zod, whose types alone it uses.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const image = Uint8Array.from({ length: 256 }, (_, index) => 255 - index);
const fetchWithPayment: typeof fetch = wrapFetch(
  async (_url, init) => {
    const asked = JSON.parse(String(init?.body)) as { max_amount: string };
    const view = { status: 200, headers: { 'content-type': 'image/png' }, body: btoa(String.fromCharCode(...image)), body_encoding: 'base64', payment_response: null, payment: { intent_id: 'i-2', status: 'settled', transaction_hash: null } };
    return new Response(JSON.stringify(view), { status: 200, headers: { 'x-request-id': 'req-' + asked.max_amount } });
  },
  { agent: { baseUrl: 'http://purser.test', did: 'did:agnic:a', apiKey: 'pak_x' } },
);

const pages = [
  { intents: [{ id: 'i-1' }, { id: 'i-2' }], nextCursor: 'i-2' },
  { intents: [{ id: 'i-3' }], nextCursor: null },
];
const owner = new PurserOwnerClient({ baseUrl: 'http://purser.test', token: 't', fetch: async () => new Response(JSON.stringify(pages.shift()), { headers: { 'idempotent-replayed': 'false' } }) });

async function main(): Promise<void> {
  const { data: paid, response } = await agent.pay({ amount: 1, to_address: 'merchant' }).withResponse();
  const bought = await fetchWithPayment('http://seller.test/image.png');
  const bytes = new Uint8Array(await bought.arrayBuffer());
  const listed: string[] = [];
  for await (const intent of owner.intents.list({ limit: 2 })) listed.push(intent.id);
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
  console.log(
    JSON.stringify({
      status,
      keys: sent,
      sameKey: sent[0] === sent[1],
      attempts: response.attempts,
      event: event.type,
      code,
      isError: apiError instanceof PurserError,
      imageIntact: bytes.length === image.length && bytes.every((byte, index) => byte === image[index]),
      paidBy: x402PaymentInfo(bought)?.payment?.intentId,
      cap: x402PaymentInfo(bought)?.purser.requestId,
      listed,
    }),
  );
}

void main();
`;

let scratch: string;
/** The package as npm would publish it: the manifest, the docs and the built dist/. */
let packageDir: string;
let dist: string;
let tarball: string;

/** `npm install` offline from the machine's cache; a cache that lacks a package's metadata is filled once. */
function npmInstall(cwd: string, ...args: string[]) {
  const common = ['install', ...args, '--no-audit', '--no-fund', '--ignore-scripts'];
  const offline = spawnSync('npm', [...common, '--offline'], { cwd, encoding: 'utf8' });
  if (offline.status === 0 || !/ENOTCACHED/.test(offline.stderr)) return offline;
  return spawnSync('npm', [...common, '--prefer-offline'], { cwd, encoding: 'utf8' });
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'purser-sdk-package-'));
  packageDir = join(scratch, 'package');
  dist = join(packageDir, 'dist');
  const build = spawnSync(join(REPO_ROOT, 'node_modules', '.bin', 'tsup'), ['--out-dir', dist], { cwd: SDK_ROOT, encoding: 'utf8' });
  expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
  for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) cpSync(join(SDK_ROOT, file), join(packageDir, file));
  // dist/ is built above; prepack (the build) is not run again.
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: packageDir, encoding: 'utf8' });
  expect(pack.status, pack.stderr).toBe(0);
  tarball = join(scratch, (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!.filename);
}, 240_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the built package', () => {
  it('is publishable: public, with its license, repository, provenance, exports and types', () => {
    const manifest = JSON.parse(readFileSync(join(SDK_ROOT, 'package.json'), 'utf8')) as Record<string, unknown> & { exports: Record<string, unknown>; files: string[] };
    expect(manifest.private).toBeUndefined();
    expect(manifest).toMatchObject({
      name: '@purser/sdk',
      license: 'MIT',
      repository: { type: 'git', url: expect.stringMatching(/^https:\/\/github\.com\/.+\.git$/), directory: 'sdk' },
      publishConfig: { access: 'public', provenance: true },
      types: './dist/index.d.ts',
      main: './dist/index.cjs',
      dependencies: { zod: expect.any(String), standardwebhooks: expect.any(String) },
    });
    expect(manifest.exports['.']).toMatchObject({
      import: { types: expect.arrayContaining(['./dist/index.d.ts']), default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'CHANGELOG.md', 'LICENSE']));
    // The changelog has an entry for the version the manifest names.
    expect(readFileSync(join(SDK_ROOT, 'CHANGELOG.md'), 'utf8')).toContain(`## [${manifest.version as string}]`);
  });

  it('packs the bundles, their declarations, the README, the changelog and the license, and nothing else', () => {
    const listing = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    expect(listing.status, listing.stderr).toBe(0);
    const files = listing.stdout.trim().split('\n').map((file) => file.replace(/^package\//, '')).sort();
    expect(files).toEqual(expect.arrayContaining(['CHANGELOG.md', 'LICENSE', 'README.md', 'dist/index.cjs', 'dist/index.d.cts', 'dist/index.d.ts', 'dist/index.js', 'package.json']));
    expect(files.filter((file) => !/^(dist\/index\.(c?js|d\.c?ts)(\.map)?|CHANGELOG\.md|LICENSE|README\.md|package\.json)$/.test(file))).toEqual([]);
  });

  it('imports nothing at run time but standardwebhooks, and its declarations nothing but zod and standardwebhooks', () => {
    const imports = (file: string, pattern: RegExp) => [...readFileSync(join(dist, file), 'utf8').matchAll(pattern)].map((match) => match[1]).sort();
    expect(imports('index.js', /^import .* from ['"]([^'"]+)['"]/gm)).toEqual(['standardwebhooks']);
    expect(imports('index.cjs', /require\(['"]([^'"]+)['"]\)/g)).toEqual(['standardwebhooks']);
    expect([...new Set(imports('index.d.ts', /from ['"]([^'"]+)['"]/g))].every((from) => ['zod', 'standardwebhooks'].includes(from!))).toBe(true);
  });

  it('installs from its tarball into an empty project, and type-checks and runs there from an ES module and a CommonJS module', () => {
    const project = join(scratch, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const install = npmInstall(project, tarball);
    expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
    const installed = join(project, 'node_modules', '@purser', 'sdk');
    expect(readdirSync(installed).sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'dist', 'package.json']);
    expect(readdirSync(join(project, 'node_modules')).sort()).toEqual(expect.arrayContaining(['@purser', 'standardwebhooks', 'zod']));

    const names = 'PurserAgentClient, PurserApiError, PurserError, PurserOwnerClient, signWebhook, verifyWebhook, wrapFetch, x402PaymentInfo';
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
      expect(result).toMatchObject({
        status: 'settled',
        sameKey: true,
        attempts: 2,
        event: 'intent.created',
        code: 'TypeError',
        isError: true,
        imageIntact: true,
        paidBy: 'i-2',
        cap: 'req-0.10',
        listed: ['i-1', 'i-2', 'i-3'],
      });
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
