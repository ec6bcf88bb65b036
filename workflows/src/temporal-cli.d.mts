// Types for temporal-cli.mjs (plain Node, so scripts can run it before TypeScript is installed).
export declare const TEMPORAL_CLI_VERSION: string;
export declare function temporalCliCacheRoot(env?: NodeJS.ProcessEnv): string;
export declare function ensureTemporalCli(options?: { log?: (message: string) => void; env?: NodeJS.ProcessEnv }): Promise<string>;
