export * from './errors';
export * from './money';
