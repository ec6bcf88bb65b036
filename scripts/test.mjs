// `npm test`: installs what is missing (dependencies, Chromium, the Temporal CLI), then runs
// every suite with the services it needs and ends with one line: `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureChromium, ensureDebianCommand } from './chromium.mjs';
import { ensureBuilt, ensureDependencies } from './ensure.mjs';
import { freePorts, log, ROOT, run } from './lib.mjs';
import { ensureN8n } from './n8n.mjs';
import { ensureTemporalCli } from './temporal-cli.mjs';

const CI = process.env.CI === 'true' || process.env.CI === '1';
const OUT = path.join(ROOT, '.test-output');
const only = process.argv.slice(2); // e.g. `npm test -- unit db-pglite`

const results = [];
const runStarted = Date.now();
const suiteStarted = new Map();

/** Minutes since `since`, to one decimal. */
const minutesSince = (since) => ((Date.now() - since) / 60_000).toFixed(1);

/** Announces a suite and notes when it started, for the summary's timings. */
function begin(name) {
  suiteStarted.set(name, Date.now());
  log(`--- ${name} (at ${minutesSince(runStarted)} min)`);
}

function record(name, passed, failed, note = '', failures = []) {
  const started = suiteStarted.get(name) ?? Date.now();
  const timing = `${minutesSince(started)} min, ended at ${minutesSince(runStarted)}`;
  results.push({ name, passed, failed, note, failures, timing });
  log(`${name}: ${passed} passed, ${failed} failed${note ? ` (${note})` : ''} in ${timing}`);
}

function wanted(name) {
  return only.length === 0 || only.includes(name);
}

async function check(name, command, args, options = {}) {
  if (!wanted(name)) return;
  begin(name);
  const code = await run(command, args, { prefix: `[${name}]`, ...options });
  record(name, code === 0 ? 1 : 0, code === 0 ? 0 : 1);
}

function firstLine(text = '') {
  return text.split('\n', 1)[0].slice(0, 300);
}

function readCounts(file, parse) {
  try {
    return parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

/** Runs the vitest `projects` (one name or several) as the suite `name`. */
async function vitest(name, projects, env = {}) {
  if (!wanted(name)) return;
  begin(name);
  const file = path.join(OUT, `${name}.json`);
  rmSync(file, { force: true });
  const code = await run(
    'npx',
    ['vitest', 'run', ...[projects].flat().flatMap((project) => ['--project', project]), '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    { env: { ...process.env, ...env }, prefix: `[${name}]` },
  );
  const counts = readCounts(file, (report) => ({
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    failures: report.testResults.flatMap((suite) => {
      const file = path.relative(ROOT, suite.name);
      const tests = suite.assertionResults
        .filter((test) => test.status === 'failed')
        .map((test) => `${file} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      // A file that failed outside its tests (a set-up hook, an import) has no failed test to name.
      return tests.length === 0 && suite.status === 'failed' ? [`${file}: ${firstLine(suite.message)}`] : tests;
    }),
  }));
  if (!counts) return record(name, 0, 1, `vitest exited with ${code} and wrote no report`);
  // A suite that crashed outside any test still fails the run.
  const failed = counts.failed + (code !== 0 && counts.failed === 0 ? 1 : 0);
  record(name, counts.passed, failed, code !== 0 && counts.failed === 0 ? `vitest exited with ${code}` : '', counts.failures);
}

// Playwright's JSON report nests suites; a spec is not ok when its last retry failed. Each is
// named with where and why it failed (the error's first lines, colours stripped), so a CI log's
// summary says enough to act on.
function failedSpecs(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).filter((spec) => !spec.ok).map((spec) => `${spec.file}:${spec.line} > ${spec.title}${failureOf(spec)}`),
    ...failedSpecs(suite.suites ?? []),
  ]);
}

function failureOf(spec) {
  const result = (spec.tests ?? []).flatMap((test) => test.results ?? []).findLast((each) => each.error);
  if (!result) return '';
  // eslint-disable-next-line no-control-regex
  const text = `${result.error.message ?? ''}`.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((line) => line.trim()).filter(Boolean).slice(0, 6).join(' | ');
  const at = result.error.location ? ` (at ${path.basename(result.error.location.file)}:${result.error.location.line})` : '';
  return `: ${text}${at}`;
}

/**
 * The PostgreSQL to test on: TEST_DATABASE_URL, DATABASE_URL, else the local one on
 * 127.0.0.1:5432, whose Debian clusters are started when they are installed but stopped (as
 * .ci/run does), so a machine that has PostgreSQL runs the PostgreSQL suites.
 */
async function postgresAdminUrl() {
  const configured = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const url = configured ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  let problem = await postgresProblem(url);
  if (problem && !configured && startLocalPostgres()) {
    for (let tries = 0; problem && tries < 30; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      problem = await postgresProblem(url);
    }
  }
  if (!problem) return url;
  log(`PostgreSQL not reachable at ${url.replace(/:[^:@/]+@/, ':***@')}: ${problem}`);
  return undefined;
}

/** Why `url` cannot be used, or null when it answers. */
async function postgresProblem(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error.message;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Starts every installed Debian PostgreSQL cluster named main; false when there is none. */
function startLocalPostgres() {
  const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : [];
  if (versions.length === 0 || spawnSync('sh', ['-c', 'command -v pg_ctlcluster'], { stdio: 'ignore' }).status !== 0) return false;
  log('starting the local PostgreSQL cluster');
  for (const version of versions) spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
  return true;
}

async function waitForHealthy(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the product exited with ${child.exitCode} before it was healthy`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url}/healthz was not 200 within ${timeoutMs} ms`);
}

/**
 * A self-signed certificate for 127.0.0.1, made with the machine's openssl. The MCP host journey
 * (e2e/specs/oauth-mcp-host.spec.ts) serves its Client ID Metadata Document over https on
 * loopback with it, and the product trusts it through NODE_EXTRA_CA_CERTS.
 */
function loopbackCertificate(dir) {
  const cert = path.join(dir, 'loopback-cert.pem');
  const key = path.join(dir, 'loopback-key.pem');
  const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert];
  const made = spawnSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (made.status !== 0) throw new Error(`openssl could not make the loopback certificate: ${made.error?.message ?? made.stderr}`);
  return { cert, key };
}

async function e2e(temporalCli, chromium) {
  if (!wanted('e2e')) return;
  begin('e2e');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'purser-e2e-'));
  let tls;
  try {
    tls = loopbackCertificate(dataDir);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    return record('e2e', 0, 1, error.message);
  }
  const [port, temporalPort, temporalUiPort, chainPort] = await freePorts(4);
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(temporalUiPort),
    SANDBOX_CHAIN_PORT: String(chainPort),
    TEMPORAL_CLI: temporalCli,
    LOG_LEVEL: 'warn',
    // The journeys sign up a fresh owner each, all from 127.0.0.1: more than an address's
    // allowance of 10 a minute. The limit itself is tested in server/test/auth*.db.test.ts.
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    DATABASE_URL: '',
    TEMPORAL_ADDRESS: '',
    NODE_EXTRA_CA_CERTS: tls.cert,
  };
  const product = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((resolve) => product.on('exit', resolve));
  try {
    await waitForHealthy(url, product, 180_000);
    const file = path.join(OUT, 'e2e.json');
    rmSync(file, { force: true });
    const code = await run('npx', ['playwright', 'test'], {
      cwd: path.join(ROOT, 'e2e'),
      prefix: '[e2e]',
      // E2E_DATA_DIR lets specs mint invitation codes with `npm run invite` against this product.
      env: {
        ...process.env,
        E2E_BASE_URL: url,
        E2E_DATA_DIR: dataDir,
        // The console journeys read the sandbox chain itself (an authorisation cancelled on chain).
        E2E_CHAIN_RPC_URL: `http://127.0.0.1:${chainPort}`,
        CHROMIUM_PATH: chromium,
        // The MCP host journey's https server for its Client ID Metadata Document.
        E2E_TLS_CERT: tls.cert,
        E2E_TLS_KEY: tls.key,
        PLAYWRIGHT_JSON_OUTPUT_FILE: file,
      },
    });
    const counts = readCounts(file, (report) => ({
      passed: (report.stats?.expected ?? 0) + (report.stats?.flaky ?? 0),
      failed: report.stats?.unexpected ?? 0,
      failures: failedSpecs(report.suites ?? []),
    }));
    if (!counts) record('e2e', 0, 1, `playwright exited with ${code} and wrote no report`);
    else record('e2e', counts.passed, counts.failed + (code !== 0 && counts.failed === 0 ? 1 : 0), '', counts.failures);
  } catch (error) {
    record('e2e', 0, 1, error.message);
  } finally {
    product.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Starts `work` now and hands back its promise; a failure surfaces where it is awaited, not as an unhandled rejection meanwhile. */
function inBackground(work) {
  const promise = work();
  promise.catch(() => {});
  return promise;
}

async function main() {
  await ensureDependencies();
  await ensureBuilt();
  // The tools only some suites need install while lint, typecheck and the first suites run: on a
  // fresh machine they take minutes (a Go build, an npm install that compiles sqlite3, apt), and
  // they wait on the network as much as on the CPU.
  const temporalCli = inBackground(() => ensureTemporalCli({ log }));
  // One apt-get at a time (dpkg holds a lock). Chromium: the e2e specs drive it, and the unit
  // suite prints the security whitepaper's PDF with it. curl and jq: the docs' shell samples,
  // run by the temporal suite, call them as readers would.
  const debian = inBackground(async () => {
    const chromium = wanted('e2e') || wanted('unit') ? await ensureChromium() : undefined;
    if (wanted('temporal')) for (const command of ['curl', 'jq']) await ensureDebianCommand(command);
    return chromium;
  });
  // The n8n tests start a real n8n. Its first install takes minutes: here, not inside a test
  // hook whose timeout it would overrun on a fresh machine.
  const n8n = wanted('temporal') ? inBackground(() => ensureN8n({ log })) : undefined;

  // Two lanes, side by side: eslint and tsc each use one core, and this machine has two.
  await Promise.all([
    // Type-aware rules load every workspace's TypeScript program: more than Node's default heap.
    check('lint', 'npx', ['eslint', '.'], { env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=8192' } }),
    (async () => {
      // The house rules of imports (.dependency-cruiser.cjs): no cycles, no workspace reaching into
      // another's files, core below everything, no server code in workflows or the browser.
      const workspaces = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).workspaces;
      await check('dependencies', 'npx', ['depcruise', '--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...workspaces]);
      // n8n's own lint for community node packages (installs @n8n/node-cli into the cache once).
      await check('n8n-node-lint', process.execPath, ['n8n-nodes/scripts/n8n-node-lint.mjs']);
      await check('typecheck', 'npm', ['run', 'typecheck', '--workspaces', '--if-present', '--silent']);
    })(),
  ]);
  await debian;
  await vitest('unit', 'unit');

  const adminUrl = wanted('db-postgres') || wanted('temporal') ? await postgresAdminUrl() : undefined;
  // The database suites keep a core busy; the temporal suite runs one file at a time and the
  // e2e suite one browser, both mostly waiting on servers, so they run beside the database suites
  // rather than after them: temporal at once, e2e once the PostgreSQL database suite is done (the
  // longest lane, e2e, then ends with the others). Each test makes its own database, so the lanes
  // share nothing but the PostgreSQL server.
  const database = ['db', 'db-isolated'];
  const postgresSuite = (async () => {
    if (!wanted('db-postgres')) return;
    if (adminUrl) await vitest('db-postgres', database, { PURSER_TEST_DB: 'postgres', TEST_DATABASE_URL: adminUrl });
    else if (CI) record('db-postgres', 0, 1, 'CI=true requires PostgreSQL (DATABASE_URL or 127.0.0.1:5432)');
    else log('db-postgres: not run, no PostgreSQL reachable (set DATABASE_URL or start one on 127.0.0.1:5432)');
  })();
  const databaseSuites = postgresSuite.then(() => vitest('db-pglite', database, { PURSER_TEST_DB: 'pglite' }));
  const temporalSuite = (async () => {
    // Payments run on PostgreSQL, as in production: the worker-crash test starts the product as
    // a separate worker process, which must reach the same database.
    if (!wanted('temporal')) return;
    await n8n;
    if (adminUrl) await vitest('temporal', 'temporal', { TEMPORAL_CLI_PATH: await temporalCli, PURSER_TEST_DB: 'postgres', TEST_DATABASE_URL: adminUrl });
    else record('temporal', 0, 1, 'the temporal suite needs PostgreSQL (DATABASE_URL or 127.0.0.1:5432)');
  })();
  const e2eSuite = postgresSuite.then(async () => e2e(await temporalCli, await debian));
  await Promise.all([databaseSuites, temporalSuite, e2eSuite]);

  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failed = results.reduce((sum, r) => sum + r.failed, 0);
  process.stdout.write('\nSuites:\n');
  for (const r of results) {
    process.stdout.write(`  ${r.name.padEnd(12)} ${r.passed} passed, ${r.failed} failed  [${r.timing}]${r.note ? `  (${r.note})` : ''}\n`);
  }
  // The names of what failed come last, where a truncated CI log still shows them.
  const failures = results.flatMap((r) => r.failures.map((failure) => `${r.name}: ${failure}`));
  if (failures.length > 0) process.stdout.write(`\nFailed:\n${failures.map((failure) => `  ${failure}\n`).join('')}`);
  process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  process.exitCode = failed > 0 || results.length === 0 ? 1 : 0;
}

await main().catch((error) => {
  log(error.stack ?? String(error));
  process.stdout.write('\n0 passed, 1 failed\n');
  process.exitCode = 1;
});
