/**
 * The docs' code samples are part of the product: every TypeScript sample compiles against the
 * packages it imports, every JSON sample parses and every shell sample is valid bash. The bash
 * samples are also run against a started product by server/test/docs-samples.temporal.test.ts.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDocSections } from './load-content';
import { codeBlocks } from './markdown-outline';
import { typeScriptProblems } from './typescript-samples';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function samples(...langs: string[]) {
  const sections = await loadDocSections();
  return sections.flatMap((section) =>
    codeBlocks(section.body)
      .filter((block) => langs.includes(block.lang))
      .map((block) => ({ ...block, where: `${section.file}:${section.bodyLine + block.line - 1}` })),
  );
}

describe('docs code samples', () => {
  it('every TypeScript sample compiles (strict, ESM, Node 20)', async () => {
    const typescript = await samples('ts', 'typescript');
    expect(typescript.length).toBeGreaterThanOrEqual(3);
    // Inside the repository, so the samples resolve the installed packages as a reader's project would.
    const dir = join(REPO_ROOT, 'node_modules', '.cache', 'purser-doc-samples');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = typescript.map((sample, index) => {
      const file = join(dir, `sample-${index}.ts`);
      writeFileSync(file, `${sample.text}\nexport {};\n`);
      return { file, where: sample.where };
    });
    const problems = typeScriptProblems(files);
    rmSync(dir, { recursive: true, force: true });
    expect(problems).toEqual([]);
  }, 120_000);

  it('every JSON sample parses', async () => {
    const json = await samples('json');
    expect(json.length).toBeGreaterThanOrEqual(5);
    const problems = json.flatMap((sample) => {
      try {
        JSON.parse(sample.text);
        return [];
      } catch (error) {
        return [`${sample.where}: ${(error as Error).message}`];
      }
    });
    expect(problems).toEqual([]);
  });

  it('every shell sample is valid bash', async () => {
    const shell = await samples('bash', 'sh');
    expect(shell.length).toBeGreaterThanOrEqual(5);
    const problems = shell.flatMap((sample) => {
      const result = spawnSync('bash', ['-n'], { input: sample.text, encoding: 'utf8' });
      return result.status === 0 ? [] : [`${sample.where}: ${result.stderr.trim()}`];
    });
    expect(problems).toEqual([]);
  });
});
