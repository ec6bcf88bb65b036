/**
 * The process-wide dependencies, built once per process (runtime.ts) and handed to every
 * surface. Services take the part they use (`Pick<AppDeps, 'db' | 'logger'>`); see the
 * README's "Dependencies".
 */
import type { Client } from '@temporalio/client';
import type { Redis } from 'ioredis';
import type { Database } from '@purser/db';
import type { WebhookRetryPolicy } from '@purser/workflows';
import type { HealthChecker } from './health';
import type { Logger } from './logger';
import type { EvmChain } from './services/chain/evm-chain';
import type { OutboundPolicy } from './services/outbound/outbound-policy';
import type { RateLimitCounters } from './services/rate-limits/rate-limit-counters';
import type { EventBus } from './services/realtime/event-bus';

/** What every procedure and route can reach; built once per process. */
export interface AppDeps {
  db: Database;
  logger: Logger;
  health: HealthChecker;
  /** Encrypts secrets at rest and derives purpose keys (see secrets.ts). Never logged. */
  masterKey: Buffer;
  /**
   * How far to believe X-Forwarded-For (rate limits key on the client address): the number of
   * proxy hops in front of the server, or the proxies' addresses and CIDR blocks. Unset or
   * false: not at all. Never `true`: any client can write the header.
   */
  trustProxy?: TrustProxy;
  /** Public base URL of this deployment, e.g. http://127.0.0.1:3000 (issuer URLs, links). */
  publicUrl: string;
  /** Committed database changes fanned out to subscriptions (services/realtime/event-bus.ts). */
  events: EventBus;
  /**
   * Where outbound calls to URLs others chose (x402 upstreams, webhook endpoints) may go:
   * public addresses, loopback in the embedded sandbox (never this product's own services),
   * and what OUTBOUND_ALLOWLIST names (services/outbound/outbound-policy.ts).
   */
  outbound: OutboundPolicy;
  /** Starts, signals and queries payment and webhook workflows. */
  temporal: TemporalDeps;
  /** The EVM chain of agents' wallets and x402 payments: the sandbox anvil or a real network. */
  chain: EvmChain;
  /** The longest window (seconds) an x402 authorisation is signed for; 300 when unset. */
  x402MaxValiditySeconds?: number;
  /** Requests per minute each agent may make to the agent API. */
  agentRateLimitPerMinute?: number;
  /**
   * Where the rate limits count (http/rate-limit-store.ts chooses): shared by every server in
   * Redis or the database, or in this process's memory. Unset: memory.
   */
  rateLimitStore?: RateLimitStore;
  /**
   * The Temporal Web UI's page of the payments namespace (e.g.
   * http://127.0.0.1:8233/namespaces/default): a payment's workflow is linked at
   * `<this>/workflows/<workflow id>`. Unset: no link.
   */
  temporalUiUrl?: string;
}

/** How far to believe X-Forwarded-For: proxy hops in front of the server, or the proxies' addresses and CIDR blocks. */
export type TrustProxy = false | number | string[];

/**
 * Where the rate limits count. `memory`: this process alone (the embedded PGlite is one process
 * by construction). `database`: the rate_limit_counters table every server on one PostgreSQL
 * shares. `redis`: REDIS_URL's Redis, under keys that begin with `keyPrefix`.
 */
export type RateLimitStore =
  | { kind: 'memory' }
  | { kind: 'database'; counters: RateLimitCounters }
  | { kind: 'redis'; client: Redis; keyPrefix: string };

export interface TemporalDeps {
  client: Client;
  /** The queue the payments worker polls (TASK_QUEUE unless a test isolates itself). */
  taskQueue: string;
  /** Backoff of webhook deliveries, handed to each delivery workflow it starts. */
  webhookRetry: WebhookRetryPolicy;
}
