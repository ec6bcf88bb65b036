// Types for scripts/temporal-cli.mjs, so TypeScript callers (tests, scripts) can import it.
export declare const TEMPORAL_CLI_VERSION: string;
export declare function temporalCliCacheRoot(env?: NodeJS.ProcessEnv): string;
export declare function ensureTemporalCli(options?: { log?: (message: string) => void; env?: NodeJS.ProcessEnv }): Promise<string>;
