/**
 * One payment as the console's payment page shows it beside the live flow: the intent, its
 * agent, its rail operation (with a paid call's protocol, on-chain transaction and the
 * authorisation it signed, decoded; over MPP, the seller's challenge and receipt too), an x402
 * channel's vouchers (one per paid call), its events, the ledger entries it posted, the webhook
 * deliveries of its events, the owner's audit entries about it and its workflow.
 *
 * Only the owner's intent is found (any other id is the same 404), and every other read hangs
 * off that intent or is filtered by the owner too. Nothing secret is read: the rail operation's
 * stored payment header is decoded to its terms here and never leaves as it is (its signature
 * could be redeemed).
 */
import {
  AppError,
  INTENT_NOT_FOUND_MESSAGE,
  railFromDb,
  toDecimalString,
  type PaymentDetailView,
  type PaymentRailView,
} from '@purser/core';
import type { Prisma } from '@purser/db';
import type { AppDeps } from '../../deps';
import { isUuid } from '../agents/owned-agent';
import type { EvmNetworkInfo } from '../chain/evm-chain';
import { describeX402Operation } from '../paid-calls/describe-rail-operation';
import { intentSelect, toIntentView } from './intent-view';

export type PaymentDetailDeps = Pick<AppDeps, 'db' | 'chain' | 'temporalUiUrl'>;

const railOperationSelect = {
  rail: true,
  reference: true,
  status: true,
  sandbox: true,
  declineCode: true,
  declineMessage: true,
  settledAt: true,
  details: true,
} as const satisfies Prisma.RailOperationSelect;

type RailOperationRow = Prisma.RailOperationGetPayload<{ select: typeof railOperationSelect }>;

export async function getPaymentDetail(deps: PaymentDetailDeps, ownerId: string, intentId: string): Promise<PaymentDetailView> {
  const { prisma } = deps.db;
  if (!isUuid(intentId)) throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  const row = await prisma.paymentIntent.findFirst({
    where: { id: intentId, ownerId },
    select: {
      ...intentSelect,
      agent: { select: { id: true, name: true, did: true, status: true } },
      railOperation: { select: railOperationSelect },
      channelVouchers: { orderBy: [{ cumulative: 'asc' }], select: { amount: true, cumulative: true, resource: true, createdAt: true } },
      events: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true, type: true, createdAt: true } },
      ledgerTransactions: {
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: {
          id: true,
          type: true,
          entries: { orderBy: { id: 'asc' }, select: { amount: true, currency: true, createdAt: true, account: { select: { kind: true } } } },
        },
      },
    },
  });
  if (!row) throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  const { agent, railOperation, channelVouchers, events, ledgerTransactions, ...intent } = row;

  const [deliveries, audit] = await Promise.all([
    events.length === 0
      ? []
      : prisma.webhookDelivery.findMany({
          where: { eventId: { in: events.map((event) => event.id) }, endpoint: { ownerId } },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          select: {
            id: true,
            endpointId: true,
            eventType: true,
            status: true,
            attempts: true,
            lastStatusCode: true,
            createdAt: true,
            deliveredAt: true,
            endpoint: { select: { url: true } },
          },
        }),
    prisma.auditEvent.findMany({
      where: { subject: `payment_intent:${intentId}`, ownerId },
      orderBy: { seq: 'asc' },
      select: { seq: true, chainSeq: true, at: true, actor: true, action: true, data: true },
    }),
  ]);

  return {
    intent: toIntentView(intent),
    agent,
    rail: railOperation ? toRailView(railOperation, intent.metadata, deps.chain.info) : null,
    events: events.map((event) => ({ id: event.id, type: event.type, createdAt: event.createdAt.toISOString() })),
    ledgerEntries: ledgerTransactions.flatMap((transaction) =>
      transaction.entries.map((entry) => ({
        transactionId: transaction.id,
        type: transaction.type,
        account: entry.account.kind,
        amount: toDecimalString(entry.amount),
        currency: entry.currency,
        createdAt: entry.createdAt.toISOString(),
      })),
    ),
    webhookDeliveries: deliveries.map((delivery) => ({
      id: delivery.id,
      endpointId: delivery.endpointId,
      endpointUrl: delivery.endpoint.url,
      eventType: delivery.eventType,
      status: delivery.status,
      attempts: delivery.attempts,
      lastStatusCode: delivery.lastStatusCode,
      createdAt: delivery.createdAt.toISOString(),
      deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    })),
    vouchers: channelVouchers.map((voucher) => ({
      amount: toDecimalString(voucher.amount),
      cumulative: toDecimalString(voucher.cumulative),
      resource: voucher.resource,
      createdAt: voucher.createdAt.toISOString(),
    })),
    auditEntries: audit.map((entry) => ({
      seq: entry.seq.toString(),
      chainSeq: entry.chainSeq.toString(),
      at: entry.at.toISOString(),
      actor: entry.actor,
      action: entry.action,
      data: isObject(entry.data) ? entry.data : {},
    })),
    workflow: { workflowId: intent.workflowId, temporalUiUrl: temporalWorkflowUrl(deps.temporalUiUrl, intent.workflowId) },
  };
}

/** `${ui}/workflows/<id>` of the namespace page the deployment configured (AppDeps.temporalUiUrl). */
export function temporalWorkflowUrl(namespaceUrl: string | undefined, workflowId: string): string | null {
  return namespaceUrl ? `${namespaceUrl.replace(/\/+$/, '')}/workflows/${encodeURIComponent(workflowId)}` : null;
}

function toRailView(operation: RailOperationRow, metadata: unknown, chain: Pick<EvmNetworkInfo, 'network' | 'explorerUrl'>): PaymentRailView {
  const rail = railFromDb(operation.rail);
  const x402 = rail === 'x402-base' ? describeX402Operation(operation.details, metadata) : null;
  const transactionHash = x402?.transactionHash ?? null;
  // The explorer of the configured network, only for operations made on that network.
  const explorerUrl = transactionHash && chain.explorerUrl && x402?.network === chain.network ? `${chain.explorerUrl}/tx/${transactionHash}` : null;
  return {
    rail,
    protocol: x402?.protocol ?? null,
    reference: operation.reference,
    status: operation.status,
    sandbox: operation.sandbox,
    declineCode: operation.declineCode,
    declineMessage: operation.declineMessage,
    settledAt: operation.settledAt?.toISOString() ?? null,
    transactionHash,
    explorerUrl,
    authorization: x402?.authorization ?? null,
    sellerReceipt: x402?.sellerReceipt ?? null,
    requestSignature: x402?.requestSignature ?? null,
    mpp: x402?.mpp ?? null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
