/**
 * The landing page's integration snippets are code a reader runs: they call Purser through the
 * TypeScript SDK and type-check strictly against it (its sources, whose types come from
 * @purser/core's contracts) and Node's types (no DOM), so a snippet calling a method or passing
 * a field the SDK lacks fails here. The page shows each file as it is, and they use the spec's
 * landing samples. server/test/landing-snippets.temporal.test.ts runs them against a started
 * product.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeScriptProblems } from '@purser/docs-content/typescript-samples';
import { INTEGRATION_WORKFLOWS } from '../data/integration-workflows';

const snippetFile = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));
const source = (name: string) => readFileSync(snippetFile(name), 'utf8');

describe('the landing page integration snippets', () => {
  it('compile in strict mode against the SDK and Node', () => {
    const samples = INTEGRATION_WORKFLOWS.map((workflow) => ({ file: snippetFile(workflow.fileName), where: workflow.fileName }));
    expect(typeScriptProblems(samples)).toEqual([]);
  }, 60_000);

  it('are shown on the page exactly as the files read', () => {
    expect(INTEGRATION_WORKFLOWS.map((workflow) => workflow.id)).toEqual(['create-intent', 'attach-policy', 'listen-to-webhooks']);
    for (const workflow of INTEGRATION_WORKFLOWS) expect(workflow.code).toBe(source(workflow.fileName));
  });

  it('use the spec samples: 50 USD, at most 3 retries, a daily cap of 100 and a 24h time box', () => {
    expect(source('create-intent.ts')).toMatch(/amount: 50,/);
    expect(source('create-intent.ts')).toMatch(/maxRetries: 3,/);
    expect(source('attach-policy.ts')).toMatch(/dailyCap: 100,/);
    expect(source('attach-policy.ts')).toMatch(/timeBox: '24h',/);
  });

  it('call Purser through @purser/sdk, never with fetch', () => {
    for (const workflow of INTEGRATION_WORKFLOWS) {
      expect(workflow.code, workflow.fileName).toMatch(/^import \{ [^}]*PurserOwnerClient[^}]* \} from '@purser\/sdk';$/m);
      expect(workflow.code, workflow.fileName).not.toMatch(/\bfetch\(/);
    }
  });
});
