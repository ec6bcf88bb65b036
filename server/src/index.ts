// @purser/server's front door. The browser takes only the tRPC router's type from here.
export type { AppRouter } from './trpc/router';

// The product's parts, for a process that assembles them itself as runtime.ts does (the bench):
// the HTTP app and its dependencies, the sandbox chain and the payments worker's activities.
// Importing them starts nothing.
export { buildApp, type AppOptions } from './app';
export type { AppDeps, TemporalDeps } from './deps';
export { createHealthChecker } from './health';
export { createEventBus } from './services/realtime/event-bus';
export { createOutboundPolicy, type OutboundPolicy } from './services/outbound/outbound-policy';
export { chooseRateLimitStore } from './http/rate-limit-store';
export type { EvmChain } from './services/chain/evm-chain';
export { startChain } from './services/chain/start-chain';
export { findFreePort } from './services/chain/sandbox/sandbox-anvil';
export { createWorkerActivities, type WorkerActivityDeps } from './worker-activities';

// Operations called below the HTTP layer, where the bench measures them.
export { createAgent } from './services/agents/create-agent';
export { topUpWallet } from './services/wallets/top-up-wallet';
export { fundAgent } from './services/wallets/fund-agent';
export { mirrorFundingOnChain } from './services/wallets/mirror-funding-on-chain';
export { createIntent } from './services/intents/create-intent';
export { intentPageQuery, listIntents } from './services/intents/list-intents';
export { encodeIntentCursor } from './services/intents/intent-cursor';
