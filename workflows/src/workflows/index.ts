// Every workflow the payments worker runs. Workflow code runs in Temporal's deterministic
// sandbox and is replayed: no Node builtins, no clocks or randomness outside the workflow
// APIs, and activities are imported as types only.
export * from './health-check';
export * from './payment';
export * from './payment-session-expiry';
export * from './webhook-delivery';
