/**
 * Type-checks code samples the way a reader's project would: strict, ESM, Node 20 (ES2023 and
 * @types/node, no DOM), resolving the packages installed in this repository. Used by the docs'
 * samples test and the landing page's snippets test.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Sample {
  /** The TypeScript file to check. */
  file: string;
  /** How a problem in it is reported, e.g. `docs/payments.md:42`. */
  where: string;
}

/** Every compiler problem in the samples, as `where (+line): message`; empty when they compile. */
export function typeScriptProblems(samples: readonly Sample[]): string[] {
  const program = ts.createProgram(
    samples.map((sample) => sample.file),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
      skipLibCheck: true,
      noUnusedLocals: true,
    },
  );
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = samples.find((sample) => sample.file === diagnostic.file?.fileName)?.where ?? diagnostic.file?.fileName ?? '';
    const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
    return `${where} (+${line}): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}
