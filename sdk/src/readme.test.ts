/**
 * The README's TypeScript samples compile, as a project elsewhere in the monorepo would compile
 * them: written outside sdk/ and importing `@purser/sdk` by name, so the package's `exports`
 * resolve them (to the sources, with no build). Once with Node's types only, once with the DOM
 * library too, as the web app compiles.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = fileURLToPath(new URL('../README.md', import.meta.url));

function typescriptSamples(markdown: string): Array<{ line: number; text: string }> {
  const samples: Array<{ line: number; text: string }> = [];
  const fence = /^```(ts|typescript)\n([\s\S]*?)^```$/gm;
  for (const match of markdown.matchAll(fence)) {
    samples.push({ line: markdown.slice(0, match.index).split('\n').length, text: match[2]! });
  }
  return samples;
}

function compile(files: Array<{ file: string; where: string }>, lib: string[]): string[] {
  const program = ts.createProgram(
    files.map((entry) => entry.file),
    {
      strict: true,
      noEmit: true,
      noUnusedLocals: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib,
      types: ['node'],
      typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
      skipLibCheck: true,
    },
  );
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = files.find((entry) => entry.file === diagnostic.file?.fileName)?.where ?? diagnostic.file?.fileName ?? '';
    const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
    return `${where} (+${line}): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

describe('the README', () => {
  const samples = typescriptSamples(readFileSync(README, 'utf8'));

  it('has a sample for the owner client, the agent client, paid calls (x402 and MPP), pagination, metadata, webhooks, errors, retries and idempotency', () => {
    expect(samples.length).toBeGreaterThanOrEqual(11);
    const all = samples.map((sample) => sample.text).join('\n');
    for (const used of [
      'new PurserOwnerClient',
      'new PurserAgentClient',
      'wrapFetch(fetch',
      'X402PriceCapError',
      'paidFetch',
      'x402.fetch',
      'x402.signPayment',
      'x402.proxy',
      'for await',
      '.withResponse()',
      'verifyWebhook',
      'PurserApiError',
      'retry:',
      'idempotencyKey',
    ]) {
      expect(all).toContain(used);
    }
  });

  it('has TypeScript samples that compile against @purser/sdk, resolved from outside the package', () => {
    const dir = join(REPO_ROOT, 'node_modules', '.cache', 'purser-sdk-readme');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = samples.map((sample, index) => {
      const file = join(dir, `sample-${index}.ts`);
      writeFileSync(file, `${sample.text}\nexport {};\n`);
      return { file, where: `sdk/README.md:${sample.line}` };
    });
    try {
      expect(compile(files, ['lib.es2023.d.ts'])).toEqual([]);
      expect(compile(files, ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
