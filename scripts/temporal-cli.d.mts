// Types for scripts/temporal-cli.mjs: the finder's, from where it lives.
export { ensureTemporalCli, TEMPORAL_CLI_VERSION, temporalCliCacheRoot } from '../workflows/src/temporal-cli.mjs';
