import type { Client } from '@temporalio/client';
import type { Database } from '@purser/db';
import type { WebhookRetryPolicy } from '@purser/workflows/constants';
import type { Logger } from '../logger';
import type { EvmChain } from '../services/chain/evm-chain';
import type { HealthChecker } from '../health';
import type { AuthenticatedOwner } from '../services/auth/authenticate-owner';
import type { EventBus } from '../services/realtime/event-bus';

/** What every procedure and route can reach; built once per process. */
export interface AppDeps {
  db: Database;
  logger: Logger;
  health: HealthChecker;
  /** Encrypts secrets at rest and derives purpose keys (see secrets.ts). Never logged. */
  masterKey: Buffer;
  /** Trust X-Forwarded-* from a reverse proxy (rate limits key on the client address). */
  trustProxy?: boolean;
  /** Public base URL of this deployment, e.g. http://127.0.0.1:3000 (issuer URLs, links). */
  publicUrl: string;
  /** Committed database changes fanned out to subscriptions (services/realtime/event-bus.ts). */
  events: EventBus;
  /**
   * Outbound calls may reach loopback and private addresses (the embedded sandbox and tests).
   * Off in production: webhook URLs and upstreams must then resolve to public addresses.
   */
  allowPrivateUrls: boolean;
  /** Starts, signals and queries payment and webhook workflows. */
  temporal: TemporalDeps;
  /** The EVM chain of agents' wallets and x402 payments: the sandbox anvil or a real network. */
  chain: EvmChain;
  /** Requests per minute each agent may make to the agent API. */
  agentRateLimitPerMinute?: number;
}

export interface TemporalDeps {
  client: Client;
  /** The queue the payments worker polls (TASK_QUEUE unless a test isolates itself). */
  taskQueue: string;
  /** Backoff of webhook deliveries, handed to each delivery workflow it starts. */
  webhookRetry: WebhookRetryPolicy;
}

export interface Context extends AppDeps {
  requestId: string;
  /** The owner behind the request's session or owner API key; null when signed out. */
  owner: AuthenticatedOwner | null;
}
