/**
 * Every ```bash sample of the docs (docs-content/docs/*.md) runs, as a reader would run it,
 * against a started product: the API on a real port, a worker on a real Temporal dev server,
 * the sandbox chain and its paid API. Each sample runs from the repository root with the
 * variables the docs promise (PURSER_URL, AGENT_DID, AGENT_API_KEY, AGENT_ID, OWNER_TOKEN,
 * OWNER_ID; for the quick start's sign-up EMAIL, PASSWORD, FULL_NAME and INVITATION_CODE; for
 * the audit commands DATABASE_URL) and must exit 0; the ledger must still balance afterwards.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, loadDocSections } from '@purser/docs-content';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { createInvitation } from '../src/services/invitations/create-invitation';
import { signUpTestOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
let chain: EvmChain;
let env: TemporalTestEnv;
let variables: Record<string, string>;

const sections = await loadDocSections();
const samples = sections.flatMap((section) =>
  codeBlocks(section.body)
    .filter((block) => block.lang === 'bash')
    .map((block) => ({ where: `${section.file}:${section.bodyLine + block.line - 1}`, script: block.text })),
);

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  const { app, deps } = env.testApp;
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const owner = await signUpTestOwner(app, deps.db.prisma);
  const call = async (method: 'POST', path: string, payload: object) => {
    const response = await app.inject({ method, url: path, headers: owner.headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as unknown;
  };
  await call('POST', '/api/v1/wallet/top-up', { amount: 1000 });
  const created = (await call('POST', '/api/v1/agents', { name: 'Docs agent', max_transaction_amount: 25, max_daily_limit: 100 })) as {
    agent: { id: string; did: string };
    api_key: { key: string };
  };
  await call('POST', '/api/v1/wallet/fund-agent', { agent_id: created.agent.id, amount: 50 });
  const invitation = await createInvitation(deps.db.prisma, { maxUses: 1, expiresAt: new Date(Date.now() + 3_600_000) });
  variables = {
    // The quick start's sign-up, with a fresh invitation; the audit commands reach the same database.
    EMAIL: `docs-${Date.now()}@example.test`,
    PASSWORD: 'correct horse battery',
    FULL_NAME: 'Docs Reader',
    INVITATION_CODE: invitation.code,
    OWNER_ID: owner.userId,
    DATABASE_URL: env.testApp.databaseUrl!,
    PURSER_URL: url,
    AGENT_DID: created.agent.did,
    AGENT_API_KEY: created.api_key.key,
    AGENT_ID: created.agent.id,
    OWNER_TOKEN: owner.accessToken,
  };
}, 300_000);

afterAll(async () => {
  await env?.close();
  await chain?.close();
});

function runBash(script: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${script}`], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...variables },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the docs bash samples', () => {
  it('has samples to run', () => {
    expect(samples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(samples)('$where runs against a started product', async ({ script }) => {
    const { code, output } = await env.runWorker(() => runBash(script));
    expect(code, output).toBe(0);
  });

  it('leaves the ledger balanced', async () => {
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
