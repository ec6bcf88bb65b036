// Vite builds the single-page app into web/dist, which the server serves as static files.
// In development the Vite server stands in front and forwards the API paths to the server.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
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
      if (this.meta.watchMode) return;
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

export default defineConfig({
  plugins: [react(), securityWhitepaper()],
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
