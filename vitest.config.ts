import { defineConfig } from 'vitest/config';

// The test layers of docs/conventions.md. scripts/test.mjs runs each project with the
// services it needs; `npx vitest run --project unit` works on its own.
const exclude = ['**/node_modules/**', '**/dist/**', 'e2e/**'];

/**
 * Database test files that replace a module (vi.mock) for their own run: they keep a module
 * registry of their own (the db-isolated project). Every other database test file shares its
 * worker's modules (isolate: false), which spares importing the server once per file: most of
 * the db suites' time before. Each test makes its own app and database, so no state is shared.
 */
const ownModules = ['server/test/auth-throttle.db.test.ts', 'server/test/openapi-coverage.db.test.ts'];
const database = { testTimeout: 60_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.{ts,mjs}'],
          exclude,
        },
      },
      {
        test: {
          name: 'db',
          include: ['*/test/**/*.db.test.ts'],
          exclude: [...exclude, ...ownModules],
          isolate: false,
          ...database,
        },
      },
      {
        test: { name: 'db-isolated', include: ownModules, exclude, ...database },
      },
      {
        test: {
          name: 'temporal',
          include: ['*/test/**/*.temporal.test.ts'],
          exclude,
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
