/**
 * The release workflow (.github/workflows/release.yml) cannot run here, so it is checked here:
 * the tags that start it, the permission npm provenance needs, a publish with provenance, and
 * scripts it runs that the packages have. When actionlint (`go install
 * github.com/rhysd/actionlint/cmd/actionlint@latest`) is on the PATH or in ~/go/bin, the
 * workflow must also pass it (GitHub's schema, expressions, and shellcheck on every script).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKFLOW = join(REPO_ROOT, '.github', 'workflows', 'release.yml');
const text = readFileSync(WORKFLOW, 'utf8');

const scriptsOf = (workspace: string) => (JSON.parse(readFileSync(join(REPO_ROOT, workspace, 'package.json'), 'utf8')) as { name: string; scripts: Record<string, string> });

function actionlint(): string | undefined {
  const candidates = [join(homedir(), 'go', 'bin', 'actionlint'), ...(process.env.PATH ?? '').split(':').map((dir) => join(dir, 'actionlint'))];
  return candidates.find((candidate) => existsSync(candidate));
}

describe('the release workflow', () => {
  it('starts on an sdk-v* or n8n-nodes-v* tag and nothing else', () => {
    const on = text.slice(text.indexOf('\non:'), text.indexOf('\npermissions:'));
    expect(on).toMatch(/^ {2}push:\n {4}tags:\n {6}- 'sdk-v\*'\n {6}- 'n8n-nodes-v\*'\n*$/m);
    expect(on).not.toMatch(/pull_request|branches|workflow_dispatch/);
  });

  it('maps each tag to its package, and checks the tag names the package’s version', () => {
    for (const workspace of ['sdk', 'n8n-nodes']) {
      const { name } = scriptsOf(workspace);
      expect(text).toContain(`${workspace}-v*) workspace=${workspace}; name=${name}; version="\${TAG#${workspace}-v}"`);
    }
    expect(text).toContain('manifest.version !== process.env.VERSION');
  });

  it('may mint an OIDC token for provenance, and otherwise only reads', () => {
    expect(text).toMatch(/^permissions:\n {2}contents: read$/m);
    expect(text).toMatch(/^ {4}permissions:\n {6}contents: read\n {6}id-token: write$/m);
    expect(text).not.toMatch(/contents: write|packages: write/);
  });

  it('builds, type-checks and tests before it publishes with provenance', () => {
    const order = ['npm ci', 'npm run generate -w @purser/db', 'npm run build -w "$NAME"', 'npm run typecheck -w "$NAME"', 'npx vitest run --project unit "$WORKSPACE/"', 'npm publish -w "$NAME" --provenance --access public'];
    const positions = order.map((command) => text.indexOf(command));
    expect(positions.every((position) => position >= 0), `${order.filter((_, index) => positions[index]! < 0).join(', ')} missing`).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text).toContain('NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}');
  });

  it('runs scripts the packages have, and both packages are public with provenance', () => {
    for (const workspace of ['sdk', 'n8n-nodes']) {
      const manifest = scriptsOf(workspace) as ReturnType<typeof scriptsOf> & { private?: boolean };
      expect(Object.keys(manifest.scripts), workspace).toEqual(expect.arrayContaining(['build', 'typecheck']));
      expect(manifest.private, workspace).toBeUndefined();
    }
  });

  it('passes actionlint where it is installed', () => {
    const binary = actionlint();
    if (!binary) {
      console.info('actionlint is not installed: the structural checks above stand alone');
      return;
    }
    const run = spawnSync(binary, [WORKFLOW], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  });
});
