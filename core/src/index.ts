// @purser/core's front door. Its modules only declare (package.json `sideEffects: false`), so a
// bundle keeps just the ones it uses: the web's assistant widget takes its constants without zod.
export * from './errors';
export * from './money';
export * from './contracts/wallets';
export * from './contracts/auth';
export * from './did';
export * from './contracts/agents';
export * from './contracts/agent-identity';
export * from './contracts/payment-protocols';
export * from './kya';
export * from './policy/policy-rules';
export * from './policy/evaluate-policy';
export * from './policy/zoned-time';
export * from './canonical-json';
export * from './contracts/intents';
export * from './contracts/webhooks';
export * from './contracts/oauth';
export * from './contracts/payment-sessions';
export * from './contracts/budget-alerts';
export * from './contracts/policies';
export * from './contracts/kya';
export * from './policy/policy-document';
export * from './contracts/agent-api';
export * from './contracts/assistant';
export * from './contracts/audit';
export * from './contracts/payment-steps';
export * from './policy/gate';
