/**
 * What must hold after any fault, read from the database and the chain, not from what the
 * product says about itself: every payment the client sent ended, once, and moved its money
 * once; the ledger balances; no hold is left open; the audit chains verify; and for x402
 * payments the ledger and the chain tell the same story. Each check adds a sentence to a list
 * of problems, so one failed case shows everything that went wrong at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, getAddress, http, type Address, type Hex, type PublicClient } from 'viem';
import { TERMINAL_INTENT_STATUSES, type IntentStatus } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { verifyAuditChains } from '../../src/services/audit/verify-audit-chains';
import { fiatTokenAbi } from '../../src/services/chain/network/fiat-token-abi';
import { verifyLedger } from '../../src/services/ledger/verify-ledger';
import type { PaymentOutcome } from './retrying-client';

export interface FundedAgent {
  id: string;
  /** Its EVM address, which x402 payments are paid from. */
  address: Address;
  /** Everything its owner funded it with, in atomic USDC (also minted on chain in the sandbox). */
  funded: bigint;
}

/** Where an authorisation was used on chain. */
export interface UsedAuthorization {
  block: bigint;
  transactionHash: Hex;
}

/** The sandbox chain as an outsider reads it: USDC balances and the EIP-3009 authorisations used. */
export interface ChainView {
  usdcBalanceOf(address: Address): Promise<bigint>;
  /** Every `authorizer:nonce` (lower case) whose transferWithAuthorization went through. */
  usedAuthorizations(): Promise<Map<string, UsedAuthorization>>;
  /** For a problem's sentence: what the chain knows of a transaction, and its head. */
  describeTransaction(hash: Hex): Promise<string>;
  head(): Promise<bigint>;
}

export function readChain(rpcUrl: string, usdcAddress: Address): ChainView {
  const client: PublicClient = createPublicClient({ transport: http(rpcUrl) });
  const usdc = { address: usdcAddress, abi: fiatTokenAbi } as const;
  return {
    usdcBalanceOf: (address) => client.readContract({ ...usdc, functionName: 'balanceOf', args: [address] }),
    async usedAuthorizations() {
      const events = await client.getContractEvents({ ...usdc, eventName: 'AuthorizationUsed', fromBlock: 0n, toBlock: 'latest' });
      return new Map(
        events.map((event) => [
          authorizationKey(event.args.authorizer as Address, event.args.nonce as Hex),
          { block: event.blockNumber, transactionHash: event.transactionHash },
        ]),
      );
    },
    async describeTransaction(hash) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
      return receipt ? `transaction ${hash} is in block ${receipt.blockNumber} (${receipt.status})` : `transaction ${hash} is unknown to the chain`;
    },
    head: () => client.getBlockNumber(),
  };
}

function authorizationKey(authorizer: Address, nonce: Hex): string {
  return `${authorizer}:${nonce}`.toLowerCase();
}

const TERMINAL = new Set<IntentStatus>(TERMINAL_INTENT_STATUSES);

/** Waits until no intent of `agentIds` is unfinished (x402 ones end when their window closes). */
export async function waitForTerminalIntents(prisma: PrismaClient, agentIds: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await prisma.paymentIntent.count({ where: { agentId: { in: agentIds }, status: { notIn: [...TERMINAL] } } });
    if (open === 0) return;
    await sleep(250);
  }
}

export interface FaultInvariantInput {
  prisma: PrismaClient;
  chain: ChainView;
  agents: FundedAgent[];
  /** The sandbox seller, and its on-chain USDC before the suite paid it anything. */
  seller: { address: Address; before: bigint };
  /** The payments of the case under test: each must have its final answer and its one intent. */
  outcomes: PaymentOutcome[];
  /**
   * Every payment the client sent before, in earlier cases (the agents are shared): their
   * intents count in the balances, and none may have a twin. A case that failed earlier is
   * not failed again for its own payments.
   */
  earlierOutcomes: PaymentOutcome[];
}

interface IntentRow {
  id: string;
  agentId: string;
  idempotencyKey: string;
  status: IntentStatus;
  amount: bigint;
  rail: string | null;
  railOperation: { status: string; reference: string; details: unknown } | null;
  ledgerTransactions: Array<{ type: string }>;
}

/** Every broken invariant as a sentence; empty when the database and the chain are sound. */
export async function faultInvariantProblems(input: FaultInvariantInput): Promise<string[]> {
  const { prisma, agents, outcomes, earlierOutcomes } = input;
  const problems: string[] = [];
  const intents: IntentRow[] = await prisma.paymentIntent.findMany({
    where: { agentId: { in: agents.map((agent) => agent.id) } },
    select: {
      id: true,
      agentId: true,
      idempotencyKey: true,
      status: true,
      amount: true,
      rail: true,
      railOperation: { select: { status: true, reference: true, details: true } },
      ledgerTransactions: { select: { type: true } },
    },
  });

  problems.push(...clientProblems(outcomes, earlierOutcomes, intents));
  problems.push(...movementProblems(intents));
  problems.push(...(await balanceProblems(prisma, agents, intents)));
  problems.push(...(await verifyLedger(prisma)).problems);
  const audit = await verifyAuditChains(prisma);
  for (const chain of audit.chains.filter((report) => !report.ok)) {
    problems.push(`audit chain ${chain.chainId} is broken at chain_seq ${chain.firstBad?.chainSeq}: ${chain.firstBad?.reason}`);
  }
  problems.push(...(await chainProblems(input, intents)));
  return problems;
}

/**
 * Each payment of the case ended with a final answer, has exactly one intent, and the answer
 * matches it; no payment ever sent has two intents, and no intent has a key the client never sent.
 */
function clientProblems(outcomes: PaymentOutcome[], earlierOutcomes: PaymentOutcome[], intents: IntentRow[]): string[] {
  const problems: string[] = [];
  const byKey = new Map<string, IntentRow[]>();
  for (const intent of intents) byKey.set(`${intent.agentId}/${intent.idempotencyKey}`, [...(byKey.get(`${intent.agentId}/${intent.idempotencyKey}`) ?? []), intent]);
  const sent = new Set([...outcomes, ...earlierOutcomes].map((outcome) => `${outcome.agentId}/${outcome.key}`));
  for (const key of byKey.keys()) if (!sent.has(key)) problems.push(`intent with key ${key} was never sent by the client`);
  for (const [key, found] of byKey) if (found.length > 1) problems.push(`key ${key}: ${found.length} intents`);

  for (const outcome of outcomes) {
    const found = byKey.get(`${outcome.agentId}/${outcome.key}`) ?? [];
    const answers = outcome.attempts.map((attempt) => attempt.answer).join(',');
    if (found.length !== 1) {
      problems.push(`key ${outcome.key}: ${found.length} intents, not 1 (answers ${answers})`);
      continue;
    }
    const intent = found[0]!;
    if (!TERMINAL.has(intent.status)) problems.push(`key ${outcome.key}: intent ${intent.id} is still ${intent.status}`);
    if (!outcome.final) {
      problems.push(`key ${outcome.key}: the client never got a final answer (answers ${answers})`);
      continue;
    }
    const { status, body } = outcome.final;
    const told = toldSettled(outcome, status, body);
    if (told === 'unexpected') problems.push(`key ${outcome.key}: final answer ${status} ${JSON.stringify(body).slice(0, 300)}`);
    else if (told === 'settled' && intent.status !== 'settled') problems.push(`key ${outcome.key}: the client was told settled, the intent is ${intent.status}`);
    else if (told === 'refused' && intent.status === 'settled') problems.push(`key ${outcome.key}: the client was refused (${status}), but the intent settled`);
  }
  return problems;
}

/** What the final answer told the client: its payment settled, was refused, or neither for sure. */
function toldSettled(outcome: PaymentOutcome, status: number, body: Record<string, unknown>): 'settled' | 'refused' | 'unsure' | 'unexpected' {
  if (status === 422) return 'refused';
  if (outcome.request.kind === 'ledger') return status === 200 && body.status === 'settled' ? 'settled' : 'unexpected';
  // A replayed /x402/fetch whose header the seller already redeemed answers 409 (see the report).
  if (status === 409) return /already redeemed/.test(JSON.stringify(body)) ? 'settled' : 'unexpected';
  if (status !== 200) return 'unexpected';
  const payment = body.payment as { status?: string } | null;
  return payment?.status === 'settled' ? 'settled' : 'unsure';
}

/** A payment's hold, capture and release each happen at most once, and the right ones happened. */
function movementProblems(intents: IntentRow[]): string[] {
  const problems: string[] = [];
  for (const intent of intents) {
    const count = (type: string) => intent.ledgerTransactions.filter((transaction) => transaction.type === type).length;
    const [holds, captures, releases] = [count('payment_hold'), count('payment_capture'), count('payment_release')];
    if (holds > 1 || captures > 1 || releases > 1) problems.push(`intent ${intent.id}: ${holds} holds, ${captures} captures, ${releases} releases`);
    if (intent.status === 'settled' && (captures !== 1 || releases !== 0 || holds !== 1)) {
      problems.push(`settled intent ${intent.id}: ${holds} holds, ${captures} captures, ${releases} releases (want 1, 1, 0)`);
    }
    if (intent.status !== 'settled' && TERMINAL.has(intent.status) && (captures !== 0 || holds !== releases)) {
      problems.push(`${intent.status} intent ${intent.id}: ${holds} holds, ${captures} captures, ${releases} releases (the hold must be returned)`);
    }
  }
  return problems;
}

/** Each agent's ledger balance is its funding less what it settled; none of its money is held. */
async function balanceProblems(prisma: PrismaClient, agents: FundedAgent[], intents: IntentRow[]): Promise<string[]> {
  const problems: string[] = [];
  for (const agent of agents) {
    const settled = sum(intents.filter((intent) => intent.agentId === agent.id && intent.status === 'settled').map((intent) => intent.amount));
    const wallet = await prisma.agentWallet.findUniqueOrThrow({ where: { agentId: agent.id }, select: { id: true, balanceUsdc: true } });
    if (wallet.balanceUsdc !== agent.funded - settled) {
      problems.push(`agent ${agent.id}: ledger balance ${wallet.balanceUsdc}, want funding ${agent.funded} - settled ${settled} = ${agent.funded - settled}`);
    }
    const holds = await prisma.ledgerAccount.findMany({ where: { agentWalletId: wallet.id, kind: 'hold', balance: { not: 0n } }, select: { currency: true, balance: true } });
    for (const hold of holds) problems.push(`agent ${agent.id}: ${hold.balance} ${hold.currency} still held`);
  }
  return problems;
}

/** Settled x402 payments are used authorisations on chain, and nothing else of the agents' is; balances agree. */
async function chainProblems(input: FaultInvariantInput, intents: IntentRow[]): Promise<string[]> {
  const { chain, agents, seller } = input;
  const problems: string[] = [];
  const used = await chain.usedAuthorizations();
  const x402 = intents.filter((intent) => intent.rail === 'x402_base');
  const agentAddresses = new Set(agents.map((agent) => agent.address.toLowerCase()));
  const accounted = new Set<string>();
  for (const intent of x402) {
    const details = (intent.railOperation?.details ?? {}) as { payer?: Address; nonce?: Hex; transactionHash?: Hex | null; fromBlock?: string };
    const key = details.payer && details.nonce ? authorizationKey(details.payer, details.nonce) : null;
    if (key) accounted.add(key);
    const onChain = key === null ? undefined : used.get(key);
    if (intent.status === 'settled' && !onChain) {
      const recorded = details.transactionHash ? await chain.describeTransaction(details.transactionHash) : 'no transaction recorded';
      problems.push(`settled x402 intent ${intent.id}: its authorisation is not used on chain (${recorded})`);
    }
    if (intent.status !== 'settled' && onChain) {
      problems.push(
        `${intent.status} x402 intent ${intent.id}: its authorisation was used on chain in block ${onChain.block} (${onChain.transactionHash}), USDC moved; ` +
          `the rail watches from block ${details.fromBlock}, the chain's head is ${await chain.head()}`,
      );
    }
  }
  for (const key of used.keys()) {
    if (agentAddresses.has(key.split(':')[0]!) && !accounted.has(key)) problems.push(`authorisation ${key} used on chain belongs to no intent`);
  }
  let settledTotal = 0n;
  for (const agent of agents) {
    const settled = sum(x402.filter((intent) => intent.agentId === agent.id && intent.status === 'settled').map((intent) => intent.amount));
    settledTotal += settled;
    const balance = await chain.usdcBalanceOf(getAddress(agent.address));
    if (balance !== agent.funded - settled) {
      problems.push(`agent ${agent.id}: on-chain USDC ${balance}, want minted ${agent.funded} - settled x402 ${settled} = ${agent.funded - settled}`);
    }
  }
  const sellerBalance = await chain.usdcBalanceOf(seller.address);
  if (sellerBalance - seller.before !== settledTotal) {
    problems.push(`seller ${seller.address}: credited ${sellerBalance - seller.before} on chain, the settled x402 payments total ${settledTotal}`);
  }
  return problems;
}

function sum(values: bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n);
}
