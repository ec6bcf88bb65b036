export * from './errors';
export * from './money';
export * from './contracts/wallets';
export * from './contracts/auth';
export * from './did';
export * from './contracts/agents';
