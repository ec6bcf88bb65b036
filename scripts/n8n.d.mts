// Types for scripts/n8n.mjs, so TypeScript callers (the n8n-nodes tests and scripts) can import it.
export declare const N8N_VERSION: string;
export declare const N8N_NODE_CLI_VERSION: string;
export declare function n8nCacheRoot(env?: NodeJS.ProcessEnv, tool?: 'n8n' | 'n8n-node-cli'): string;
export declare function ensureN8n(options?: { log?: (message: string) => void; env?: NodeJS.ProcessEnv }): Promise<string>;
export declare function ensureN8nNodeCli(options?: { log?: (message: string) => void; env?: NodeJS.ProcessEnv }): Promise<string>;
