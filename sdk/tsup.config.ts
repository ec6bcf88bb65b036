/**
 * The published build (`npm run build -w @purser/sdk`): ESM and CommonJS bundles with their
 * declarations in dist/. The runtime imports nothing from @purser/core or zod (type imports
 * only); core's types are inlined into the declarations (tsconfig.build.json maps core to its
 * sources), which then reference only zod's types, a dependency of the package.
 */
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  target: 'node20',
  platform: 'node',
  dts: { resolve: [/^@purser\/core/] },
  clean: true,
  sourcemap: true,
  treeshake: true,
  tsconfig: 'tsconfig.build.json',
});
