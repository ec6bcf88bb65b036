/**
 * The outbox of payment workflows. An x402 payment is authorised, held and signed in the agent's
 * own request (services/paid-calls/front/pay-in-request.ts), and its workflow (capture or
 * release, on chain and in the ledger) must run whatever happens next: the process may die right
 * after the commit, or Temporal may be down. So the transaction that holds the funds also writes an outbox row, and
 * the row is deleted only once Temporal has the workflow.
 *
 * The request starts its own workflow right after the commit; the relay starts every row left
 * behind, on start-up and then every few seconds. Starting is idempotent by workflow id
 * (payment-workflows.ts), so two servers relaying the same row, or the relay and the request,
 * start one workflow. Nothing is locked while Temporal is called: a row is read, started, then
 * deleted.
 */
import type { TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import { startWebhookDeliveries } from '../webhooks/start-webhook-deliveries';
import { startPaymentWorkflow } from './payment-workflows';

type OutboxDeps = Pick<AppDeps, 'db' | 'temporal'>;

/** How often the relay looks for rows left behind. */
export const OUTBOX_RELAY_INTERVAL_MS = 2_000;
/** A row this young is its request's to start; the relay leaves it alone for now. */
const REQUEST_GRACE_MS = 1_000;
/** Rows one pass starts at most. */
const RELAY_BATCH = 100;

/** Written in the transaction that holds the payment's funds, with the deliveries of the events it emitted. */
export async function addToOutbox(tx: TransactionClient, intent: { id: string; maxRetries: number }, webhookDeliveryIds: readonly string[]): Promise<void> {
  await tx.paymentWorkflowOutbox.create({
    data: { paymentIntentId: intent.id, maxRetries: intent.maxRetries, webhookDeliveryIds: [...webhookDeliveryIds] },
    select: { paymentIntentId: true },
  });
}

export type OutboxRow = { paymentIntentId: string; maxRetries: number; webhookDeliveryIds: string[] };
const rowSelect = { paymentIntentId: true, maxRetries: true, webhookDeliveryIds: true } as const;

/** The intent's outbox row; null once its workflow has started. */
export function findOutboxRow(deps: Pick<AppDeps, 'db'>, intentId: string): Promise<OutboxRow | null> {
  return deps.db.prisma.paymentWorkflowOutbox.findUnique({ where: { paymentIntentId: intentId }, select: rowSelect });
}

/**
 * Starts the workflow and the webhook deliveries of one outbox row, then deletes the row: true
 * once Temporal has them all (also when the row is gone: started already). A failure is
 * recorded on the row (for an operator reading the table) and answered false; the relay tries
 * again.
 */
export async function startFromOutbox(deps: OutboxDeps, intentId: string, known?: OutboxRow): Promise<boolean> {
  const prisma = deps.db.prisma;
  const row = known ?? (await findOutboxRow(deps, intentId));
  if (!row) return true;
  try {
    // Every row is a payment authorised in the agent's request (pay-in-request.ts).
    await startPaymentWorkflow(deps.temporal, { id: intentId, maxRetries: row.maxRetries, paidInRequest: true });
    await startWebhookDeliveries(deps.temporal, row.webhookDeliveryIds);
  } catch (error) {
    await prisma.paymentWorkflowOutbox.updateMany({
      where: { paymentIntentId: intentId },
      data: { attempts: { increment: 1 }, lastAttemptAt: new Date(), lastError: String(error instanceof Error ? error.message : error).slice(0, 500) },
    });
    return false;
  }
  await prisma.paymentWorkflowOutbox.deleteMany({ where: { paymentIntentId: intentId } });
  return true;
}

/**
 * One pass: starts the workflows of rows older than the request's grace, oldest first. Stops at
 * the first failure (Temporal is down: the next pass tries again) and answers how many started.
 */
export async function relayOutbox(deps: OutboxDeps, options: { graceMs?: number } = {}): Promise<{ started: number; failed: boolean }> {
  const before = new Date(Date.now() - (options.graceMs ?? REQUEST_GRACE_MS));
  const rows = await deps.db.prisma.paymentWorkflowOutbox.findMany({
    where: { createdAt: { lt: before } },
    orderBy: { createdAt: 'asc' },
    take: RELAY_BATCH,
    select: rowSelect,
  });
  let started = 0;
  for (const row of rows) {
    if (!(await startFromOutbox(deps, row.paymentIntentId, row))) return { started, failed: true };
    started++;
  }
  return { started, failed: false };
}

export interface OutboxRelay {
  stop(): Promise<void>;
}

/** Relays at once (rows a previous process left, whatever their age), then every `intervalMs`. */
export function startOutboxRelay(deps: OutboxDeps & Pick<AppDeps, 'logger'>, options: { intervalMs?: number } = {}): OutboxRelay {
  let failing = false;
  const pass = (graceMs?: number) =>
    relayOutbox(deps, graceMs === undefined ? {} : { graceMs })
      .then(({ started, failed }) => {
        if (started > 0) deps.logger.info({ started }, 'started payment workflows from the outbox');
        if (failed && !failing) deps.logger.warn('payment workflows wait in the outbox: Temporal is unreachable');
        failing = failed;
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'the outbox relay could not read the outbox'));
  let running = pass(0);
  // One pass at a time: a slow Temporal must not pile passes up.
  const timer = setInterval(() => void (running = running.then(() => pass())), options.intervalMs ?? OUTBOX_RELAY_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
