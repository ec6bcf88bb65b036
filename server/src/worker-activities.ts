/**
 * The payments worker's activities, built from the process's dependencies: the payment
 * steps (database, ledger, rails, webhook events) and the webhook sender. The runtime and
 * the temporal test suites build them the same way.
 */
import { createActivities } from '@purser/workflows';
import type { EvmChain } from './services/chain/evm-chain';
import { createPaymentSteps } from './services/payments/payment-steps';
import { createX402BaseRail } from './services/paid-calls/create-x402-rail';
import { createRails, type CreateRailsOptions } from './services/rails/create-rails';
import { createWebhookSender } from './services/webhooks/deliver-webhook';
import { createPaymentSessionCloser } from './services/payment-sessions/close-payment-session';
import type { AppDeps } from './deps';

export interface WorkerActivityDeps extends Pick<AppDeps, 'db' | 'logger' | 'masterKey' | 'outbound' | 'temporal' | 'x402MaxValiditySeconds'> {
  /** The EVM chain x402 payments settle on; without it the x402-base rail refuses. */
  chain?: EvmChain;
  /** Settlement delay of the sandbox card and bank simulators (their defaults when absent). */
  sandboxSettlementDelayMs?: number;
  /** How long a webhook receiver may take to answer (DEFAULT_WEBHOOK_TIMEOUT_MS when absent). */
  webhookTimeoutMs?: number;
  rails?: Omit<CreateRailsOptions, 'prisma'>;
}

export function createWorkerActivities(deps: WorkerActivityDeps) {
  const delay = deps.sandboxSettlementDelayMs;
  const rails = createRails({
    prisma: deps.db.prisma,
    ...(delay === undefined ? {} : { card: { settlementDelayMs: delay }, bank: { settlementDelayMs: delay } }),
    ...(deps.chain ? { x402: createX402BaseRail({ prisma: deps.db.prisma, masterKey: deps.masterKey, chain: deps.chain, maxValiditySeconds: deps.x402MaxValiditySeconds }) } : {}),
    ...deps.rails,
  });
  return createActivities({
    db: deps.db,
    payments: createPaymentSteps({ db: deps.db, temporal: deps.temporal, logger: deps.logger, rails }),
    webhooks: createWebhookSender({ db: deps.db, masterKey: deps.masterKey, outbound: deps.outbound, fetchTimeoutMs: deps.webhookTimeoutMs }),
    paymentSessions: createPaymentSessionCloser({ db: deps.db, temporal: deps.temporal, logger: deps.logger }),
  });
}
