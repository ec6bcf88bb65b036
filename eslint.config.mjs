// Lint rules from STYLE.md: no floating promises, no Node builtins in workflow files,
// no process.env outside env.ts (and the plain-node scripts and test support).
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'prisma/src/generated/**',
      '.data/**',
      '.test-output/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through env.ts; nothing else reads process.env.',
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Process environment is read in one place per process, and by test support and tooling.
    // The landing page's snippets are a reader's scripts, configured by their environment.
    files: ['**/env.ts', '**/testing.ts', '**/test/**', '**/*.test.ts', '**/*.config.ts', 'e2e/**', 'bench/**', 'web/src/features/landing/snippets/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Workflow code is replayed deterministically in a sandbox: no I/O, no Node builtins.
    files: ['workflows/src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.flatMap((name) => [name, `node:${name}`]).map((name) => ({
            name,
            message: 'Workflow files must not use Node builtins; do I/O in activities.',
          })),
          patterns: [{ group: ['node:*'], message: 'Workflow files must not use Node builtins.' }],
        },
      ],
    },
  },
);
