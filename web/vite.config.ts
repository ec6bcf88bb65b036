// Vite builds the single-page app into web/dist, which the server serves as static files.
// In development the Vite server stands in front and forwards the API paths to the server.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiServer = 'http://127.0.0.1:3000';
const proxiedPaths = ['/trpc', '/api', '/auth', '/functions', '/healthz'];

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate files stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion)[\\/]/ },
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
