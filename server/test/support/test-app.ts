/**
 * A real server on a real database for route and service tests: buildApp() over
 * openTestDatabase() (PostgreSQL or PGlite per PURSER_TEST_DB), exercised with app.inject().
 */
import { randomBytes } from 'node:crypto';
import { freePorts } from '../../../scripts/lib.mjs';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { openTestDatabase } from '@purser/db/testing';
import { buildApp, type AppOptions } from '../../src/app';
import { createHealthChecker } from '../../src/health';
import { createOutboundPolicy, type OutboundPolicy } from '../../src/services/outbound/outbound-policy';
import { createEventBus } from '../../src/services/realtime/event-bus';
import type { Client } from '@temporalio/client';
import { DEFAULT_WEBHOOK_RETRY } from '@purser/workflows';
import type { Database } from '@purser/db';
import type { AppDeps, RateLimitStore, TemporalDeps } from '../../src/deps';
import { chooseRateLimitStore } from '../../src/http/rate-limit-store';
import type { TrustProxy } from '../../src/http/trust-proxy';
import type { EvmChain, EvmNetworkInfo } from '../../src/services/chain/evm-chain';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  /** PostgreSQL only: the database's URL, for a second connection (another process's writes). */
  databaseUrl?: string;
  cleanup(): Promise<void>;
}

/**
 * For suites that never start a workflow: any use of Temporal fails loudly. The temporal
 * suites hand in a real client connected to a real dev server instead.
 */
export function temporalNotInThisTest(): TemporalDeps {
  const client = new Proxy({} as Client, {
    get() {
      throw new Error('This test runs without Temporal: use a *.temporal.test.ts suite to start workflows');
    },
  });
  return { client, taskQueue: 'unused', webhookRetry: DEFAULT_WEBHOOK_RETRY };
}

/**
 * For suites that never touch the chain: any read or write of it fails loudly (a sandbox
 * funding's mint fails and is only logged). It says it is the sandbox, so the sandbox shortcuts
 * (top-ups, the KYA verifier) work; `{ sandbox: false }` plays a real network, where they refuse.
 */
export function chainNotInThisTest(options: { sandbox?: boolean } = {}): EvmChain {
  const info: EvmNetworkInfo = {
    network: 'eip155:84532',
    v1Name: 'base-sepolia',
    displayName: 'No chain in this test',
    chainId: 84532,
    sandbox: options.sandbox ?? true,
    usdcAddress: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    explorerUrl: null,
    faucetUrl: null,
  };
  return new Proxy({ info } as EvmChain, {
    get(target, property) {
      if (property === 'info' || property === 'then') return property === 'info' ? target.info : undefined;
      throw new Error('This test runs without an EVM chain: pass `chain` (startChain) to createTestApp');
    },
  });
}

/**
 * The embedded sandbox's outbound policy: loopback is reachable (the suites run sellers and
 * webhook receivers on 127.0.0.1), private ranges, link-local and metadata are not.
 */
export function sandboxOutbound(options: Partial<OutboundPolicy> = {}): OutboundPolicy {
  return createOutboundPolicy({ allowLoopback: true, ...options });
}

/**
 * `options` adds app options beyond the deps, e.g. `{ authRateLimits: { password: 2 } }`;
 * `temporal` connects the app to a real Temporal dev server (temporal suites).
 */
export async function createTestApp(
  options: Partial<Omit<AppOptions, keyof AppDeps>> & {
    temporal?: TemporalDeps;
    chain?: EvmChain;
    agentRateLimitPerMinute?: number;
    outbound?: OutboundPolicy;
    trustProxy?: TrustProxy;
    x402MaxValiditySeconds?: number;
    temporalUiUrl?: string;
    /** Where the rate limits count, or how to build that from the app's database; unset, as the runtime chooses without Redis. */
    rateLimitStore?: RateLimitStore | ((deps: Pick<AppDeps, 'db' | 'logger'>) => RateLimitStore);
    /** Another server of a deployment set up already: its database (the caller closes it) and master key. */
    deployment?: { db: Database; masterKey: Buffer };
    /** The app's PUBLIC_URL (a suite that serves it listens on its port). */
    publicUrl?: string;
  } = {},
): Promise<TestApp> {
  const {
    temporal = temporalNotInThisTest(),
    chain = chainNotInThisTest(),
    agentRateLimitPerMinute,
    outbound = sandboxOutbound(),
    trustProxy,
    x402MaxValiditySeconds,
    temporalUiUrl,
    rateLimitStore = chooseRateLimitStore,
    deployment,
    publicUrl = 'http://127.0.0.1:3000',
    ...appOptions
  } = options;
  const { db, databaseUrl, cleanup } = deployment ? { db: deployment.db, databaseUrl: undefined, cleanup: async () => {} } : await openTestDatabase();
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const ok = async () => {};
  const deps: AppDeps = {
    db,
    logger,
    // Health is not under test here; Temporal is covered by the temporal suite.
    health: createHealthChecker({ db, pingTemporal: ok, pingWorker: ok, runWorkflow: ok }),
    masterKey: deployment?.masterKey ?? randomBytes(32),
    publicUrl,
    events: createEventBus({ db, logger: pino({ level: 'silent' }) }),
    temporal,
    chain,
    agentRateLimitPerMinute,
    outbound,
    trustProxy,
    x402MaxValiditySeconds,
    temporalUiUrl,
    rateLimitStore: typeof rateLimitStore === 'function' ? rateLimitStore({ db, logger }) : rateLimitStore,
  };
  // The reconciler restarts payments whose workflow a test ended on purpose; the tests of it run its passes themselves.
  const app = await buildApp({ sandboxPaidApi: options.chain !== undefined, reconciler: false, ...appOptions, ...deps });
  await app.ready();
  return {
    app,
    deps,
    databaseUrl,
    async cleanup() {
      // Ends open subscriptions first: app.close() waits for every response to finish.
      await deps.events.close();
      await app.close();
      await cleanup();
    },
  };
}

/**
 * A test app served on 127.0.0.1, its PUBLIC_URL the address it listens on (the suites whose
 * links, resource metadata or MCP clients need the app's own origin).
 */
export async function listeningTestApp(options: Omit<Parameters<typeof createTestApp>[0] & object, 'publicUrl'> = {}): Promise<TestApp & { appUrl: string }> {
  const [port] = await freePorts(1);
  const appUrl = `http://127.0.0.1:${port}`;
  const testApp = await createTestApp({ ...options, publicUrl: appUrl });
  await testApp.app.listen({ host: '127.0.0.1', port });
  return { ...testApp, appUrl };
}
