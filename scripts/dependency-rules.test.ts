// The house rules of imports (.dependency-cruiser.cjs) bite: each forbidden import, added to a
// small tree of workspaces, fails the check that `npm test` runs, and the allowed ones pass.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

/** Each workspace's entry, and a file inside it. */
const BASE: Record<string, string> = {
  'tsconfig.json': '{}',
  'core/src/index.ts': "export * from './money';\n",
  'core/src/money.ts': 'export const cents = 100;\n',
  'server/src/index.ts': "export { router, type Router } from './router';\n",
  'server/src/router.ts': "import { cents } from '../../core/src/index';\nexport type Router = { cents: typeof cents };\nexport const router = { cents };\n",
  'workflows/src/index.ts': "import { cents } from '../../core/src/index';\nexport const twice = cents * 2;\n",
  'web/src/main.ts': "import type { Router } from '../../server/src/index';\nexport const shape: Router | null = null;\n",
  'scripts/lib.mjs': 'export const port = 1;\n',
};

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function cruise(extra: Record<string, string>): { status: number | null; output: string } {
  dir = mkdtempSync(path.join(tmpdir(), 'purser-rules-'));
  for (const [file, text] of Object.entries({ ...BASE, ...extra })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const result = spawnSync(DEPCRUISE, ['--config', CONFIG, '--output-type', 'err', 'core', 'server', 'workflows', 'web'], { cwd: dir, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

// depcruise takes a few seconds on a busy machine.
describe('the dependency rules', { timeout: 60_000 }, () => {
  it('pass a tree that imports workspaces through their entries, and web only types from the server', () => {
    const { status, output } = cruise({});
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  it('fail on each forbidden import, naming the rule and the import', () => {
    const { status, output } = cruise({
      'core/src/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'core/src/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      'workflows/src/deep.ts': "import { cents } from '../../core/src/money';\nexport const deep = cents;\n",
      'core/src/up.ts': "import { twice } from '../../workflows/src/index';\nexport const up = twice;\n",
      'workflows/src/server-type.ts': "import type { Router } from '../../server/src/index';\nexport const none: Router | null = null;\n",
      'web/src/value.ts': "import { router } from '../../server/src/index';\nexport const value = router;\n",
      'server/src/tool.ts': "import { port } from '../../scripts/lib.mjs';\nexport const tool = port;\n",
    });
    const errors = output.split('\n').filter((line) => line.trim().startsWith('error '));
    expect(errors.map((line) => line.trim()).sort()).toEqual(
      [
        'error core-imports-nothing-ours: core/src/up.ts → workflows/src/index.ts',
        // A cycle is reported once, from its first file; its path follows on the next lines.
        'error no-circular: core/src/a.ts →',
        'error no-deep-imports: workflows/src/deep.ts → core/src/money.ts',
        'error no-workspace-imports-scripts: server/src/tool.ts → scripts/lib.mjs',
        'error web-takes-only-types-from-server: web/src/value.ts → server/src/index.ts',
        'error workflows-not-server: workflows/src/server-type.ts → server/src/index.ts',
      ].sort(),
    );
    expect(status).not.toBe(0);
  });
});
