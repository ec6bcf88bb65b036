/**
 * How much JavaScript the landing page makes a first-time visitor download. The web app is
 * built (or a built dist dir, or a running server, is given), served as the server serves it
 * (each pre-rendered page from its own HTML file, other routes from the shell), and '/' is opened in
 * Debian's Chromium at 1280x900; every JavaScript response until the network is idle, without
 * scrolling, is the landing page's initial JS. Each file is gzipped with node:zlib at level 9
 * (what a compressing server or CDN sends, independent of how this server serves it) and the
 * total is printed beside the target (250 kB gzip) and beside a floor measured in the same run
 * the same way: an empty Vite + React app with one react-router route, built from the same
 * installed react, react-dom, react-router and Vite, i.e. the least any page of this stack
 * ships. The floor is a reference, not a goal: the landing page adds MUI, the theme, the data
 * layer and its own sections.
 *
 * It also times the largest contentful paint of '/' on cold loads (a fresh browser context
 * each), beside the empty app's, for the record: the build pre-renders the landing page, so its
 * text paints from the HTML, before any script runs. `npm run bench` calls measureWebBundle.
 *
 *   npx tsx bench/src/web-bundle.ts                     # build web/ into a temp dir and measure it
 *   npx tsx bench/src/web-bundle.ts --dist web/dist     # measure an existing build
 *   npx tsx bench/src/web-bundle.ts --url http://127.0.0.1:3000   # measure a running server
 *
 * Chromium: CHROMIUM_PATH, else /usr/bin/chromium, else `chromium` on PATH (never downloaded).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import { isEntryPoint } from './entry';
import { formatNumber, percentile, TARGETS, type Measurement } from './report';
import { log } from './timing';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WEB = join(ROOT, 'web');
/** The budget for the landing page's initial JavaScript, gzip, in kB (1 kB = 1000 bytes). */
const TARGET_KB = TARGETS.landingJs.bound;

interface Options {
  dist?: string;
  url?: string;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {};
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === '--dist' || flag === '--url') && value) {
      options[flag === '--dist' ? 'dist' : 'url'] = flag === '--dist' ? resolve(value) : value;
      i += 1;
    } else {
      throw new Error(`Unknown argument ${flag}: use --dist <dir> or --url <base url>`);
    }
  }
  return options;
}

function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured && existsSync(configured)) return configured;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error("Chromium not found: install Debian's chromium package or set CHROMIUM_PATH");
  }
}

const webRequire = createRequire(join(WEB, 'package.json'));
const VITE_BIN = join(dirname(webRequire.resolve('vite/package.json')), 'bin', 'vite.js');

function viteBuild(cwd: string, outDir: string, extra: string[] = []): void {
  execFileSync(process.execPath, [VITE_BIN, 'build', ...extra, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * The floor: an empty app on the same stack. Its sources live under node_modules/.cache so
 * that react, react-dom, react-router and @vitejs/plugin-react resolve from the installed
 * packages, exactly as the web app's do.
 */
function buildFloorApp(outDir: string): void {
  const source = join(ROOT, 'node_modules', '.cache', `purser-bench-floor-${process.pid}`);
  mkdirSync(source, { recursive: true });
  try {
    writeFileSync(
      join(source, 'index.html'),
      '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>floor</title></head><body><div id="root"></div><script type="module" src="/main.jsx"></script></body></html>\n',
    );
    writeFileSync(
      join(source, 'main.jsx'),
      [
        "import { StrictMode } from 'react';",
        "import { createRoot } from 'react-dom/client';",
        "import { createBrowserRouter, RouterProvider } from 'react-router';",
        "const router = createBrowserRouter([{ path: '*', element: <main><h1>Hello</h1></main> }]);",
        "createRoot(document.getElementById('root')).render(<StrictMode><RouterProvider router={router} /></StrictMode>);",
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(source, 'vite.config.mjs'),
      "import { defineConfig } from 'vite';\nimport react from '@vitejs/plugin-react';\nexport default defineConfig({ plugins: [react()] });\n",
    );
    viteBuild(source, outDir);
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.md': 'text/markdown; charset=utf-8',
  '.pdf': 'application/pdf',
};

/**
 * Serves a built app as the server does: files as they are, a folder by its index.html (the
 * pre-rendered pages: '/' is index.html, '/blog' blog/index.html), any other path as the shell
 * (web's shell.html; the floor app has only index.html).
 */
async function serveDist(dir: string): Promise<{ url: string; server: Server }> {
  const root = resolve(dir);
  const shell = existsSync(join(root, 'shell.html')) ? join(root, 'shell.html') : join(root, 'index.html');
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    let file = normalize(join(root, pathname));
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(root + sep) || !existsSync(file)) file = shell;
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    response.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

export interface ScriptFile {
  name: string;
  bytes: number;
  gzip: number;
}

const VIEWPORT = { width: 1280, height: 900 };

function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
}

/** Every JavaScript file '/' loads until the network is idle, without scrolling. */
async function initialScripts(browser: Browser, baseUrl: string): Promise<ScriptFile[]> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    const pending: Array<Promise<ScriptFile | null>> = [];
    page.on('response', (response) => {
      const type = response.headers()['content-type'] ?? '';
      const script = response.request().resourceType() === 'script' || /javascript|ecmascript/.test(type);
      if (!script || response.status() !== 200) return;
      pending.push(
        response.body().then(
          (body) => ({ name: new URL(response.url()).pathname, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length }),
          () => null,
        ),
      );
    });
    await page.goto(new URL('/', baseUrl).toString(), { waitUntil: 'networkidle' });
    // Anything started once the page settled (idle callbacks, timers) is part of the initial load too.
    // (A string: bench compiles without the DOM library; this runs in the page.)
    await page.evaluate('new Promise((done) => requestIdleCallback(() => done(), { timeout: 2000 }))');
    await page.waitForLoadState('networkidle');
    const files = (await Promise.all(pending)).filter((file): file is ScriptFile => file !== null);
    // The same URL twice (a modulepreload and its import) is one download.
    return [...new Map(files.map((file) => [file.name, file])).values()];
  } finally {
    await context.close();
  }
}

/**
 * The last largest-contentful-paint entry once the network is idle (what the browser would
 * report if the visitor acted then), in ms from navigation start. A fresh context each time:
 * a first visit, nothing cached. (A string: bench compiles without the DOM library.)
 */
const LCP_SCRIPT = `new Promise((done) => {
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    done(entries.length ? entries[entries.length - 1].startTime : null);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => done(null), 5000);
})`;

async function largestContentfulPaint(browser: Browser, baseUrl: string): Promise<number> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(new URL('/', baseUrl).toString(), { waitUntil: 'networkidle' });
    const lcp = await page.evaluate<number | null>(LCP_SCRIPT);
    if (lcp === null) throw new Error(`${baseUrl} reported no largest contentful paint`);
    return lcp;
  } finally {
    await context.close();
  }
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const total = (files: ScriptFile[], field: 'bytes' | 'gzip') => files.reduce((sum, file) => sum + file[field], 0);

function printFiles(title: string, files: ScriptFile[]): void {
  console.log(`\n${title}`);
  console.log(`  ${'file'.padEnd(56)} ${'raw kB'.padStart(9)} ${'gzip kB'.padStart(9)}`);
  for (const file of [...files].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`  ${file.name.padEnd(56)} ${kB(file.bytes).padStart(9)} ${kB(file.gzip).padStart(9)}`);
  }
  console.log(`  ${'total'.padEnd(56)} ${kB(total(files, 'bytes')).padStart(9)} ${kB(total(files, 'gzip')).padStart(9)}`);
}

export interface WebBundleOptions {
  /** An existing build of web/ to measure; unset: build web/ into a temp dir. */
  dist?: string;
  /** A running server to measure instead of a build. */
  url?: string;
  /** Page loads timed for the LCP of each side, taken in turns. */
  lcpSamples: number;
}

export interface WebBundleResult {
  landing: ScriptFile[];
  floor: ScriptFile[];
  /** Each load's largest contentful paint, ms. */
  landingLcp: number[];
  floorLcp: number[];
}

export async function measureWebBundle(options: WebBundleOptions): Promise<WebBundleResult> {
  const executablePath = chromiumPath();
  const work = mkdtempSync(join(tmpdir(), 'purser-bench-web-'));
  const servers: Server[] = [];
  let browser: Browser | undefined;
  try {
    let landingUrl = options.url;
    if (!landingUrl) {
      let dist = options.dist;
      if (!dist) {
        dist = join(work, 'web');
        log('web: building web/ ...');
        viteBuild(WEB, dist);
      }
      const served = await serveDist(dist);
      servers.push(served.server);
      landingUrl = served.url;
    }
    log('web: building the floor (an empty Vite + React + react-router app) ...');
    const floorDist = join(work, 'floor');
    buildFloorApp(floorDist);
    const floorServer = await serveDist(floorDist);
    servers.push(floorServer.server);

    browser = await launchChromium(executablePath);
    log(`web: measuring the landing page at ${landingUrl} and the floor`);
    const landing = await initialScripts(browser, landingUrl);
    const floor = await initialScripts(browser, floorServer.url);
    log(`web: largest contentful paint, ${options.lcpSamples} loads each, taken in turns`);
    const [landingLcp, floorLcp]: [number[], number[]] = [[], []];
    for (let i = 0; i < options.lcpSamples; i++) {
      landingLcp.push(await largestContentfulPaint(browser, landingUrl));
      floorLcp.push(await largestContentfulPaint(browser, floorServer.url));
    }
    return { landing, floor, landingLcp, floorLcp };
  } finally {
    await browser?.close();
    for (const server of servers) server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The runner's two rows: initial JS against its budget, LCP for the record. */
export function webMeasurements(result: WebBundleResult): { js: Measurement; lcp: Measurement } {
  const landingGzip = total(result.landing, 'gzip');
  const floorGzip = total(result.floor, 'gzip');
  const samples = result.landingLcp.length;
  return {
    js: {
      name: 'landing page initial JS',
      value: landingGzip / 1000,
      unit: 'kB gzip',
      floor: floorGzip / 1000,
      floorName: 'an empty Vite+React app',
      target: TARGETS.landingJs,
      detail: `${result.landing.length} files vs ${result.floor.length}; gzip level 9, 1 kB = 1000 bytes; every script '/' loads until the network is idle`,
    },
    lcp: {
      name: 'landing page largest contentful paint, p50',
      value: percentile(result.landingLcp, 0.5),
      unit: 'ms',
      floor: percentile(result.floorLcp, 0.5),
      floorName: "the empty app's LCP",
      target: TARGETS.landingLcp,
      detail: `${samples} cold loads each in headless Chromium at 1280x900, served from loopback; max ${formatNumber(Math.max(...result.landingLcp))} ms vs ${formatNumber(Math.max(...result.floorLcp))} ms`,
    },
  };
}

if (isEntryPoint(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2));
  const result = await measureWebBundle({ ...options, lcpSamples: 5 });
  const { landing, floor } = result;
  printFiles("Landing page '/': initial JavaScript", landing);
  printFiles('Floor: empty Vite + React + react-router app', floor);
  const landingGzip = total(landing, 'gzip');
  const floorGzip = total(floor, 'gzip');
  console.log('\nsummary (gzip level 9, 1 kB = 1000 bytes)');
  console.log(`  landing initial JS  ${kB(landingGzip).padStart(7)} kB in ${landing.length} files`);
  console.log(`  target              ${String(TARGET_KB).padStart(5)}.0 kB  -> ${landingGzip <= TARGET_KB * 1000 ? 'within' : 'OVER'} by ${kB(Math.abs(TARGET_KB * 1000 - landingGzip))} kB`);
  console.log(`  floor               ${kB(floorGzip).padStart(7)} kB  -> landing is ${(landingGzip / floorGzip).toFixed(2)}x the floor, ${kB(landingGzip - floorGzip)} kB above it`);
  const web = webMeasurements(result);
  console.log(`  LCP (p50 of ${result.landingLcp.length})       ${formatNumber(web.lcp.value).padStart(7)} ms  -> the floor's ${formatNumber(web.lcp.floor!)} ms`);
}
