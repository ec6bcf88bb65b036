import { defineConfig } from 'vitest/config';

// The test layers of docs/conventions.md. scripts/test.mjs runs each project with the
// services it needs; `npx vitest run --project unit` works on its own.
const exclude = ['**/node_modules/**', '**/dist/**', 'e2e/**'];

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
          exclude,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
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
