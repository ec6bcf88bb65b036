/**
 * The MCP tool x402_fetch pays a seller that speaks only MPP (issue 40), driven by the official
 * MCP client over the agent's MCP endpoint. The seller is mppx's own server on the sandbox chain
 * (support/mpp-seller.ts, its x402 offer off). tools/list tells the model the tool pays x402 and
 * MPP sellers; the call pays exactly the price once (on chain to the payee, once in the ledger)
 * and its result names the protocol and the seller's receipt; the same call again under its
 * idempotency_key pays nothing more.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { MPP_SELLER_PRICE, startMppSeller, type MppSeller } from './support/mpp-seller';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { AGENT_API, createFundedAgent, expectLedgerConsistent, intentReaches, ledgerBalance, ownerCall, signedOperations, type TestAgent } from './support/x402-fixtures';

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let seller: MppSeller;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 })).statusCode).toBe(200);
  seller = await startMppSeller(chain, { x402: false });
}, 300_000);

afterAll(async () => {
  await seller?.close();
  await env?.close();
  await chain?.close();
});

async function connect(agent: TestAgent): Promise<Client> {
  const client = new Client({ name: 'purser-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}${AGENT_API}/mcp`), { requestInit: { headers: agent.headers } }));
  return client;
}

interface PaidView {
  status: number;
  body: string;
  payment: { intent_id: string; status: string; transaction_hash: string | null; protocol?: string } | null;
  mpp_receipt?: { method: string; status: string; reference: string; confirmed: boolean } | null;
}

describe('the MCP tool x402_fetch against a seller that speaks only MPP', () => {
  it('says it pays x402 and MPP sellers, pays the price once, and answers the protocol and the receipt the chain confirms', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const client = await connect(agent);
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((candidate) => candidate.name === 'x402_fetch');
      expect(tool?.description).toMatch(/x402/);
      expect(tool?.description).toMatch(/MPP/);

      const money = async () => ({ ledger: await ledgerBalance(prisma, agent.id), payer: await chain.usdcBalanceOf(agent.address), payee: await chain.usdcBalanceOf(seller.payTo) });
      const before = await money();
      const call = { name: 'x402_fetch', arguments: { url: seller.paidUrl, max_amount: 0.05, idempotency_key: `mcp-mpp-${agent.id}` } };

      const paid = await env.runWorker(async () => {
        const result = (await client.callTool(call)) as CallToolResult;
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        const answer = result.structuredContent as unknown as PaidView;
        await intentReaches(prisma, answer.payment!.intent_id, 'settled');
        return { result, answer };
      });
      const { answer } = paid;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ forecast: 'sunny' });
      // The seller was sent one MPP credential, never an x402 header, and settled it once.
      expect(seller.seen.filter((seen) => seen.paymentSignature !== null)).toEqual([]);
      expect(seller.seen.filter((seen) => seen.credential !== null)).toHaveLength(1);
      expect(seller.settlements).toHaveLength(1);
      const [settlement] = seller.settlements;
      expect(settlement).toMatchObject({ protocol: 'mpp', from: agent.address, to: seller.payTo, value: MPP_SELLER_PRICE });
      expect(answer.payment).toMatchObject({ protocol: 'mpp', transaction_hash: settlement!.transaction });
      expect(answer.mpp_receipt).toMatchObject({ method: 'evm', status: 'success', reference: settlement!.transaction, confirmed: true });
      // A client that reads only text sees the protocol too.
      expect(paid.result.content).toEqual([{ type: 'text', text: expect.stringContaining('"protocol": "mpp"') }]);

      const after = await money();
      expect(after.payee - before.payee).toBe(MPP_SELLER_PRICE);
      expect(before.payer - after.payer).toBe(MPP_SELLER_PRICE);
      expect(before.ledger - after.ledger).toBe(MPP_SELLER_PRICE);

      // The same call again, under its idempotency_key: the first payment's answer, nothing more paid.
      const again = (await env.runWorker(() => client.callTool(call))) as CallToolResult;
      expect(again.isError, JSON.stringify(again.content)).toBeFalsy();
      expect((again.structuredContent as unknown as PaidView).payment).toMatchObject({ intent_id: answer.payment!.intent_id, protocol: 'mpp' });
      expect(seller.settlements).toHaveLength(1);
      expect(await money()).toEqual(after);
      expect(await signedOperations(prisma, agent.id)).toHaveLength(1);
    } finally {
      await client.close();
    }
    await expectLedgerConsistent(prisma);
  });
});
