/**
 * An `exact` or `upto` x402 payment authorised in the agent's own request (the hot path,
 * ARCHITECTURE.md). One database transaction writes the intent, runs the policy and KYA gate,
 * holds the funds and writes the outbox row of the payment workflow, which then captures or
 * releases as for every payment. The agent's call goes on to the seller as soon as the payment is
 * signed; it never waits for Temporal, and a Temporal outage or a crash after the commit leaves
 * the workflow to the outbox relay (intents/workflow-outbox.ts), never a hold without its workflow.
 *
 * `exact` is signed and recorded (the rail operation) in that same transaction. `upto` first
 * needs the agent's Permit2 allowance raised on chain to what it holds, this payment included,
 * which the committed hold counts: it is signed and recorded just after the commit, once the
 * allowance is there, as the workflow's rail step would do (recordOperationOnce: whichever of the
 * two records first is the payment's one signature, and the other is never stored or sent).
 *
 * What the transaction needs from the chain is read before it (no lock is held across a network
 * call): the payer's USDC on chain, the block to search from, the token's EIP-712 domain. A
 * payment this path cannot take on its own answers null, and the caller takes the workflow's
 * path, which handles it as before: an idempotency key seen already (a replay), or on-chain
 * funds short of the price (the sandbox's chain may still be replaying its mints).
 */
import { type CreateIntentInput, type IntentView } from '@purser/core';
import { getAddress, type Address } from 'viem';
import type { AuthenticatedAgent } from '../../agents/authenticate-agent';
import { withAuditRetry } from '../../audit/append-audit-event';
import { readAgentEvmAccount } from '../../identity/agent-keys';
import { agentCreator, concurrentDuplicate, insertIntent, prepareIntent } from '../../intents/create-intent';
import { intentSelect, toIntentView } from '../../intents/intent-view';
import { addToOutbox, startFromOutbox } from '../../intents/workflow-outbox';
import { authorizeInTransaction } from '../../payments/authorize-payment';
import { authorizedAtOnce, readNewPaymentInputs, writeAuthorizedPayment } from '../../payments/authorize-new-payment';
import { insertOperation, recordOperationOnce, type NewOperation } from '../../rail-operations/operation-record';
import type { Rail } from '../../rail-operations/rail';
import { createX402BaseRail } from '../create-x402-rail';
import { schemeFor } from '../schemes/lookup';
import { recordWhileActive } from './record-while-active';
import type { PricedRequirement } from '../schemes/payment-scheme';
import type { X402IntentMetadata } from '../x402/intent-metadata';
import { schemeContext, type X402Deps } from './x402-deps';

export interface PaidInRequest {
  /** The intent as the transaction left it: processing (held and signed), or refused, or waiting for the owner. */
  intent: IntentView;
  /**
   * The signed authorisation's operation; null when the gate did not let the payment through,
   * or when an `upto` payment could not be signed here (its workflow signs it).
   */
  operation: Pick<NewOperation, 'status' | 'details' | 'declineMessage'> | null;
  /** False when the operation is the workflow's, which recorded it first: its header is to be checked again. */
  signedHere: boolean;
  /**
   * Starts the payment's workflow from its outbox row (true once Temporal has it; false leaves
   * it to the relay). Called by the caller when it suits: /x402/fetch after the seller answered,
   * so the workflow's first steps do not compete with the paid call; the row is there either way.
   */
  startWorkflow(): Promise<boolean>;
}

/** The rail the gate quotes with, one per chain (the x402 rail's quote reads no network). */
const railByChain = new WeakMap<X402Deps['chain'], Rail>();

function railFor(deps: X402Deps): Rail {
  let rail = railByChain.get(deps.chain);
  if (!rail) {
    rail = createX402BaseRail({ prisma: deps.db.prisma, masterKey: deps.masterKey, chain: deps.chain, maxValiditySeconds: deps.x402MaxValiditySeconds });
    railByChain.set(deps.chain, rail);
  }
  return rail;
}

export async function payInRequest(
  deps: X402Deps,
  agent: AuthenticatedAgent,
  input: CreateIntentInput & { metadata: { x402: X402IntentMetadata } },
  price: PricedRequirement,
  options: { idempotencyKey?: string },
): Promise<PaidInRequest | null> {
  const prisma = deps.db.prisma;
  const ready = await prepareIntent(deps, agentCreator(agent), input, options);
  if ('existing' in ready) return null;
  const { prepared } = ready;

  const { wallet } = prepared;
  if (!wallet.evmWalletAddress) return null;
  const payer = getAddress(wallet.evmWalletAddress);
  const { chain } = deps;
  const [onChain, fromBlock, domain, account] = await Promise.all([
    chain.usdcBalanceOf(payer as Address),
    chain.publicClient.getBlockNumber(),
    chain.usdcDomain(),
    readAgentEvmAccount(prisma, deps.masterKey, agent.agentId),
  ]);
  if (onChain < price.amount) return null;

  const { intentId } = prepared;
  const payment = {
    intentId,
    amount: input.amount,
    currency: input.currency,
    toAddress: input.toAddress ?? null,
    merchant: input.merchant ?? null,
    geography: input.geography ?? null,
    metadata: input.metadata,
    payer: { agentId: agent.agentId, walletAddress: wallet.walletAddress, evmAddress: payer },
  };
  const rail = railFor(deps);
  const scheme = schemeFor(price.scheme);
  const context = schemeContext(deps);
  const log = (message: string, data: object) => deps.logger.info(data, message);
  const signing = { network: chain.info.network, payment, price, x402: input.metadata.x402, payer, account, domain, fromBlock };
  let paid;
  try {
    paid = await withAuditRetry(prisma, async (tx) => {
      // The lock order of every payment: the agent, its wallet, then the audit chain's head, which
      // the intent's first audit entry takes. Taken the other way round, this transaction and a
      // capture of the same agent's last payment would deadlock (and wait a second to find out).
      // The agent's row first (intents/lock-paying-agent.ts): a suspension that committed is
      // seen by the front below, and one that comes later waits for this commit, then sweeps.
      // Both locks and the gate's inputs are one statement; a payment that goes through is
      // signed and then written in one more (payments/authorize-new-payment.ts).
      const inputs = await readNewPaymentInputs(tx, prepared);
      const atOnce = await authorizedAtOnce(prepared, inputs, rail);
      if (atOnce) {
        const idempotencyKey = atOnce.row.idempotencyKey;
        const operation = scheme.paidInRequest === 'in-transaction' ? await scheme.open(context, { ...signing, idempotencyKey }) : null;
        const deliveryIds = await writeAuthorizedPayment(tx, prepared, inputs, atOnce, operation && { rail, operation }, log);
        return { intent: toIntentView(atOnce.row), operation, deliveryIds, authorized: true, idempotencyKey };
      }
      // Any other outcome (refused, waiting for the owner, too little money): the general front,
      // under the locks just taken.
      const row = await insertIntent(tx, prepared);
      const { outcome, deliveryIds } = await authorizeInTransaction(tx, { 'x402-base': rail }, log, intentId);
      let operation: NewOperation | null = null;
      if (outcome.outcome === 'authorized' && scheme.paidInRequest === 'in-transaction') {
        operation = await scheme.open(context, { ...signing, idempotencyKey: row.idempotencyKey });
        await insertOperation(tx, rail, intentId, operation);
      }
      await addToOutbox(tx, { id: intentId, maxRetries: input.maxRetries }, deliveryIds);
      const intent = toIntentView(await tx.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: intentSelect }));
      return { intent, operation, deliveryIds, authorized: outcome.outcome === 'authorized', idempotencyKey: row.idempotencyKey };
    });
  } catch (error) {
    // The same key, sent twice at once: the other request's payment is this one's (a replay).
    await concurrentDuplicate(deps, prepared, error);
    return null;
  }
  const { deliveryIds, authorized, idempotencyKey, intent } = paid;
  const outboxRow = { paymentIntentId: intentId, maxRetries: input.maxRetries, webhookDeliveryIds: deliveryIds };
  const startWorkflow = () =>
    startFromOutbox(deps, intentId, outboxRow).catch((error: unknown) => {
      deps.logger.warn({ err: error, intentId }, 'the payment workflow waits in the outbox');
      return false;
    });
  if (scheme.paidInRequest !== 'after-commit' || !authorized) return { intent, operation: paid.operation, signedHere: true, startWorkflow };

  // `upto`, held: Permit2 may move what the agent's open `upto` payments hold, this one now
  // included; then the one signature of this payment. A failure here (the chain unreachable)
  // leaves the signing to the workflow, which the caller starts at once.
  try {
    const { operation, created } = await recordOperationOnce(prisma, rail, intentId, async () => {
      // Suspended since the commit: the workflow's rail step records the refusal.
      const { status } = await prisma.agent.findUniqueOrThrow({ where: { id: agent.agentId }, select: { status: true } });
      if (status !== 'active') throw new Error(`the agent is ${status}`);
      return scheme.open(context, { ...signing, idempotencyKey });
    }, { recordIn: recordWhileActive(agent.agentId, intentId, { network: chain.info.network, payer }) });
    return { intent, operation, signedHere: created, startWorkflow };
  } catch (error) {
    deps.logger.warn({ err: error, intentId }, 'the upto payment could not be signed in the request; its workflow signs it');
    return { intent, operation: null, signedHere: false, startWorkflow };
  }
}
