/**
 * The process environment, parsed once. Every bad variable is reported together so a
 * misconfigured deployment fails at start with one readable message.
 */
import path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65_535);
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_URL: z.url().optional(),
  /** Behind a reverse proxy: trust X-Forwarded-For so rate limits see client addresses. */
  TRUST_PROXY: flag.default(false),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  TEMPORAL_ADDRESS: z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port').optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_CLI: z.string().min(1).optional(),
  RUN_SERVER: flag.default(true),
  RUN_WORKER: flag.default(true),
  WEB_DIST: z.string().min(1).optional(),
  /** Base64 of 32 random bytes. Unset: generated once under DATA_DIR/master.key (mode 0600). */
  MASTER_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'must be base64 of exactly 32 bytes')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: flag.optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * Let webhooks (and agent upstream calls) reach loopback and private addresses. On for the
   * embedded sandbox; set false in production so owner-supplied URLs cannot probe the network.
   */
  ALLOW_PRIVATE_URLS: flag.default(true),
  /** How long the sandbox card and bank simulators take to settle (their defaults when unset). */
  SANDBOX_SETTLEMENT_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  /** JSON-RPC URL of the EVM network (Base Sepolia, Base). Unset: a local sandbox chain (anvil). */
  EVM_RPC_URL: z.url().optional(),
  /** CAIP-2 id of EVM_RPC_URL's network: eip155:84532 (Base Sepolia) or eip155:8453 (Base). */
  EVM_NETWORK: z.enum(['eip155:84532', 'eip155:8453']).default('eip155:84532'),
  /** An external x402 facilitator. Unset: the in-process one (FACILITATOR_PRIVATE_KEY pays its gas). */
  X402_FACILITATOR_URL: z.url().optional(),
  /** 0x-prefixed key of the account that pays settlement gas on a real network. Never logged. */
  FACILITATOR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key')
    .optional(),
  /** A sandbox chain (anvil) shared by several processes, e.g. docker compose's `chain`. Unset: started here. */
  SANDBOX_CHAIN_RPC_URL: z.url().optional(),
  /** Port of the sandbox chain (anvil) started here; 0 picks a free one. */
  SANDBOX_CHAIN_PORT: port.default(8545),
  /** Agent API calls each agent may make per minute (REST and MCP together). */
  AGENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  /** First webhook retry delay; each later one doubles, up to an hour, for 25 hours. */
  WEBHOOK_RETRY_INITIAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
});

export type Env = z.infer<typeof schema> & { DATA_DIR: string };

export class EnvError extends Error {
  override name = 'EnvError';
}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings mean "unset" (docker-compose and shells often pass VAR= through).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return { ...result.data, DATA_DIR: path.resolve(result.data.DATA_DIR) };
}
