// Vite builds the single-page app into web/dist, which the server serves as static files, and
// pre-renders the public pages into it (prerenderPublicPages below).
// In development the Vite server stands in front and forwards the API paths to the server.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineConfig, type Plugin, type ViteBuilder } from 'vite';
import react from '@vitejs/plugin-react';
import type * as EntryServer from './src/entry-server';
import { buildWhitepaperPdf, renderWhitepaperMarkdown } from '@purser/docs-content/whitepaper';

const apiServer = 'http://127.0.0.1:3000';
const proxiedPaths = ['/trpc', '/api', '/auth', '/functions', '/healthz', '/.well-known'];

/** The landing page's security resources: static files beside index.html. */
const WHITEPAPER_FILES = { markdown: 'security-whitepaper.md', pdf: 'security-whitepaper.pdf' } as const;

/** Prints the whitepaper to a PDF (headless Chromium) and returns its bytes. */
async function whitepaperPdf(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'purser-web-whitepaper-'));
  try {
    const file = join(dir, WHITEPAPER_FILES.pdf);
    await buildWhitepaperPdf(file);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Emits the security whitepaper (docs-content/security/whitepaper.md) into the build as
 * markdown and as PDF. The PDF prints while the app bundles; when it cannot be printed the
 * build fails, so a release never ships a page linking to a missing file. The dev server
 * renders both on request.
 */
function securityWhitepaper(): Plugin {
  let pdf: Promise<Buffer> | undefined;
  return {
    name: 'purser-security-whitepaper',
    buildStart() {
      // The whitepaper ships with the app; the pre-renderer's server build has no use for it.
      if (this.meta.watchMode || this.environment.name !== 'client') return;
      pdf = whitepaperPdf();
      // Awaited in generateBundle; until then a rejection must not count as unhandled.
      pdf.catch(() => undefined);
    },
    async generateBundle() {
      if (!pdf) return;
      this.emitFile({ type: 'asset', fileName: WHITEPAPER_FILES.markdown, source: await renderWhitepaperMarkdown() });
      let bytes: Buffer;
      try {
        bytes = await pdf;
      } catch (error) {
        this.error(`the security whitepaper PDF could not be printed: ${(error as Error).message}`);
      }
      this.emitFile({ type: 'asset', fileName: WHITEPAPER_FILES.pdf, source: bytes });
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = request.url?.split('?')[0];
        if (path !== `/${WHITEPAPER_FILES.markdown}` && path !== `/${WHITEPAPER_FILES.pdf}`) return next();
        const markdown = path.endsWith('.md');
        (markdown ? renderWhitepaperMarkdown() : whitepaperPdf()).then((body) => {
          response.setHeader('content-type', markdown ? 'text/markdown; charset=utf-8' : 'application/pdf');
          response.end(body);
        }, next);
      });
    },
  };
}

/**
 * The build's empty index.html, kept under this name: the server answers it for every route
 * that was not pre-rendered (the signed-in pages, the 404), and the app renders from scratch.
 */
const SPA_SHELL = 'shell.html';

/**
 * Where the pre-renderer's server build goes: inside this workspace's Vite cache folder, where
 * Node resolves its packages as from web/; one folder per build process, removed after.
 */
const SERVER_BUILD_DIR = fileURLToPath(new URL(`node_modules/.vite/prerender-${process.pid}`, import.meta.url));

/** Each lazy chunk of a build by name ('landing-page'), with the files it needs: itself and what it imports. */
function lazyChunks(result: Awaited<ReturnType<ViteBuilder['build']>>): Map<string, string[]> {
  if (!('output' in result)) throw new Error('the pre-renderer needs the client build written, not watched');
  const chunks = new Map(result.output.flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])));
  const withImports = (fileName: string, files: Set<string>): Set<string> => {
    if (files.has(fileName)) return files;
    files.add(fileName);
    for (const imported of chunks.get(fileName)?.imports ?? []) withImports(imported, files);
    return files;
  };
  return new Map([...chunks.values()].filter((chunk) => chunk.isDynamicEntry).map((chunk) => [chunk.name, [...withImports(chunk.fileName, new Set())]]));
}

/**
 * Pre-renders the public pages, so that each arrives as HTML with its text, title and
 * description, and is then hydrated by the app. `vite build` builds the browser app first (its
 * index.html is every page's template), then src/entry-server.tsx for Node, into Vite's cache
 * folder inside node_modules, where its imports of React, MUI and the rest resolve from the
 * installed packages; then it renders every page into `<outDir>/<path>/index.html` ('/' into
 * index.html itself) and keeps the empty template as SPA_SHELL. A page that fails to render
 * fails the build. The dev server renders every page in the browser, as before.
 */
function prerenderPublicPages(): Plugin {
  return {
    name: 'purser-prerender-public-pages',
    config: () => ({
      // Builds every environment on `vite build`, in the order buildApp below gives.
      builder: {},
      environments: {
        ssr: {
          build: {
            outDir: SERVER_BUILD_DIR,
            emptyOutDir: true,
            copyPublicDir: false,
            rolldownOptions: {
              input: 'src/entry-server.tsx',
              // One file: the pages it renders import their modules at once, not on demand.
              output: { entryFileNames: 'entry-server.mjs', codeSplitting: false },
            },
          },
        },
      },
    }),
    // `vite preview` answers like the server (server/src/http/prerendered-pages.ts): a
    // pre-rendered page from its own file, any other page of the app with the shell.
    configurePreviewServer(server) {
      const outDir = resolve(server.config.root, server.config.build.outDir);
      server.middlewares.use((request, _response, next) => {
        const pathname = request.url?.split('?')[0] ?? '/';
        if (request.method === 'GET' && request.headers.accept?.includes('text/html') && extname(pathname) === '') {
          const page = join(pathname, 'index.html');
          request.url = existsSync(join(outDir, page)) ? page : `/${SPA_SHELL}`;
        }
        next();
      });
    },
    async buildApp(builder) {
      const client = builder.environments.client;
      const server = builder.environments.ssr;
      if (!client || !server) throw new Error('the pre-renderer needs the client and ssr environments');
      const chunks = lazyChunks(await builder.build(client));
      const outDir = resolve(builder.config.root, client.config.build.outDir);
      const template = await readFile(join(outDir, 'index.html'), 'utf8');
      await writeFile(join(outDir, SPA_SHELL), template);
      try {
        await builder.build(server);
        const entry = join(SERVER_BUILD_DIR, 'entry-server.mjs');
        const { prerenderPages } = (await import(pathToFileURL(entry).href)) as typeof EntryServer;
        for (const page of await prerenderPages(template, chunks)) {
          await mkdir(dirname(join(outDir, page.file)), { recursive: true });
          await writeFile(join(outDir, page.file), page.html);
        }
      } finally {
        await rm(SERVER_BUILD_DIR, { recursive: true, force: true });
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), securityWhitepaper(), prerenderPublicPages()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate files stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            // Only the MUI modules the first page needs: the rest follow their lazy pages, so
            // the landing page does not download the dashboard's components.
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion)[\\/]/, tags: ['$initial'] },
            // Only the landing page's flow diagram draws with React Flow, and it loads on demand.
            { name: 'xyflow', test: /node_modules[\\/](@xyflow|d3-[a-z]+|classcat)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: Object.fromEntries(
      proxiedPaths.map((path) => [
        path,
        {
          target: apiServer,
          // '/auth' is also a page of the app: a browser navigating to it asks for HTML,
          // and that request must reach Vite, not the API server.
          bypass: (req) =>
            req.headers.accept?.includes('text/html') ? '/index.html' : undefined,
        },
      ]),
    ),
  },
});
