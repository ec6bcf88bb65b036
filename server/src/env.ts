/**
 * The process environment, parsed once. Every bad variable is reported together so a
 * misconfigured deployment fails at start with one readable message.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { parseAllowlist, type AllowlistEntry } from './services/outbound/outbound-policy';

const port = z.coerce.number().int().min(0).max(65_535);
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** OTEL_TRACES_EXPORTER: comma-separated exporter names, of those Purser has. */
const traceExporters = z
  .string()
  .transform((value) => value.split(',').map((name) => name.trim()))
  .pipe(z.array(z.enum(['otlp', 'console', 'none'])));

/** proxy-addr's names for address ranges, usable in TRUST_PROXY's list. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of TRUST_PROXY's list: an address, a CIDR block (not /0) or a range name; else why not. */
function proxyAddressProblem(entry: string): string | null {
  if (PROXY_RANGE_NAMES.has(entry)) return null;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return `"${entry}" is not an IP address or CIDR block`;
  if (prefix === undefined) return null;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  if (!(bits >= 1 && bits <= (version === 4 ? 32 : 128))) return `"${entry}" has no valid prefix length (1 to ${version === 4 ? 32 : 128})`;
  return null;
}

/**
 * How far X-Forwarded-For is believed: a number of proxy hops in front of the server, or the
 * proxies' addresses; false believes none. Never "everyone": any client can write the header.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    const text = value?.trim().toLowerCase() ?? 'false';
    if (text === 'false' || text === 'no' || text === '0') return false;
    if (text === 'true' || text === 'yes') {
      ctx.addIssue({
        code: 'custom',
        message:
          'trusting every proxy lets any client forge its address; give the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.2,10.1.0.0/16)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(text)) {
      const hops = Number(text);
      if (hops > 10) {
        ctx.addIssue({ code: 'custom', message: 'a hop count must be between 1 and 10' });
        return z.NEVER;
      }
      return hops;
    }
    const entries = text.split(',').map((entry) => entry.trim());
    const problems = entries.map((entry) => (entry === '' ? 'an empty entry' : proxyAddressProblem(entry))).filter((problem) => problem !== null);
    if (problems.length > 0) {
      ctx.addIssue({ code: 'custom', message: `must be a hop count or a comma-separated list of proxy addresses and CIDR blocks: ${problems.join('; ')}` });
      return z.NEVER;
    }
    return entries;
  });

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_URL: z.url().optional(),
  /**
   * Behind reverse proxies: how many of them (e.g. 1), or their addresses and CIDR blocks, so
   * rate limits see client addresses. Unset or false: X-Forwarded-For is ignored.
   */
  TRUST_PROXY: trustProxy,
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  TEMPORAL_ADDRESS: z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port').optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  /**
   * Port on 127.0.0.1 where the Temporal SDK serves its worker metrics (schedule-to-start
   * latency, task slots), appended to GET /metrics. Unset: not exported. A fixed port, not 0:
   * the scrape must know where to read them.
   */
  TEMPORAL_METRICS_PORT: port.min(1).optional(),
  /**
   * The Temporal Web UI of TEMPORAL_ADDRESS's cluster (e.g. https://temporal.example.com), for
   * the console's links to a payment's workflow. Unset: the embedded dev server's UI when it
   * runs here, else no link.
   */
  TEMPORAL_UI_URL: z.url().optional(),
  TEMPORAL_CLI: z.string().min(1).optional(),
  RUN_SERVER: flag.default(true),
  RUN_WORKER: flag.default(true),
  WEB_DIST: z.string().min(1).optional(),
  /**
   * Base64 of 32 random bytes. Unset: MASTER_KEY_FILE, else, for the whole product in one process
   * only, generated once under DATA_DIR/master.key (mode 0600); a server or worker alone refuses to start.
   */
  MASTER_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'must be base64 of exactly 32 bytes')
    .optional(),
  /** A file holding MASTER_KEY (base64 of 32 bytes), e.g. a Docker secret under /run/secrets. */
  MASTER_KEY_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: flag.optional(),
  /**
   * OpenTelemetry traces (docs/operations.md, Traces): off unless OTEL_TRACES_EXPORTER names an
   * exporter or an OTLP endpoint is set; OTEL_SDK_DISABLED=true turns them off whatever else is
   * set. The SDK reads the other OTEL_* variables itself (OTEL_SERVICE_NAME,
   * OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, OTEL_EXPORTER_OTLP_HEADERS, ...).
   */
  OTEL_SDK_DISABLED: flag.optional(),
  OTEL_TRACES_EXPORTER: traceExporters.optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * Outbound calls to URLs others chose (x402 upstreams, webhook endpoints) reach public
   * addresses, and in the sandbox (see isSandbox) loopback too, where local sellers and webhook
   * receivers run, though never this product's own services. Link-local and cloud metadata
   * addresses are always refused. In the sandbox, true also lets them reach private ranges
   * (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) and false refuses loopback as well.
   * Outside the sandbox true is refused at start: name internal hosts in OUTBOUND_ALLOWLIST.
   */
  ALLOW_PRIVATE_URLS: flag.optional(),
  /**
   * Comma-separated hosts, IP addresses and CIDR networks that outbound calls may reach whatever
   * their address: an internal seller, a webhook receiver on a private network.
   */
  OUTBOUND_ALLOWLIST: z
    .string()
    .optional()
    .transform((value, ctx): AllowlistEntry[] => {
      try {
        return parseAllowlist(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `must be comma-separated host names, IP addresses or CIDR networks: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
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
  /**
   * The longest an x402 authorisation stays redeemable: validBefore is at most
   * min(the seller's maxTimeoutSeconds, this) after signing. Its hold lasts as long.
   */
  X402_MAX_VALIDITY_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  /** Sign-ups and password sign-ins each client address may make per minute (spec: 10). */
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  /**
   * How long after its rotation a refresh token may be presented again and still answer the
   * session's current token (a reload or a second tab racing a refresh), instead of revoking
   * the session as stolen. 0: never. As GoTrue's GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL.
   */
  AUTH_REFRESH_TOKEN_REUSE_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /** Agent API calls each agent may make per minute (REST and MCP together). */
  AGENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  /**
   * Requests each owner may make per minute on tRPC, the REST API, the edge functions and
   * /auth/v1 (each call of a tRPC batch counted); before sign-in, each client address.
   */
  OWNER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(1_200),
  /** Payment-list searches and assistant requests each owner (or client address) may make per minute. */
  OWNER_SEARCH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  /** Live-update streams (the console's subscriptions) each owner may hold open at once, across servers. */
  OWNER_STREAM_LIMIT: z.coerce.number().int().min(1).max(10_000).default(30),
  /**
   * A Redis (redis:// or rediss://) where every server counts the rate limits. Unset: the
   * database when it is PostgreSQL, else this process's memory (http/rate-limit-store.ts).
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** First webhook retry delay; each later one doubles, up to an hour, for 25 hours. */
  WEBHOOK_RETRY_INITIAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /**
   * The assistant's model provider: any OpenAI-compatible chat completions API. Unset: the
   * assistant answers offline from the documentation. Never logged.
   */
  OPENAI_API_KEY: z.string().min(1).optional(),
  /** The provider's base URL (e.g. http://127.0.0.1:11434/v1); unset: OpenAI's own API. */
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** Assistant requests each client address may make per minute. */
  ASSISTANT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
  /** The longest one assistant answer may take, provider calls included. */
  ASSISTANT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /**
   * The bearer token for operator-only endpoints (/healthz?deep=true, and GET /metrics unless
   * metricsAccess (http/metrics-access.ts) opens it). Unset: nobody may call them. Never logged.
   */
  OPERATOR_TOKEN: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)').optional(),
  /**
   * A listener of its own for GET /metrics, answered there without a token; PORT then does not
   * serve it. Bind it (METRICS_HOST) where only the scraper reaches. Unset: /metrics is on PORT.
   */
  METRICS_PORT: port.min(1).optional(),
  /** The address METRICS_PORT listens on; 0.0.0.0 in a container whose scraper is on its network. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

export type Env = z.infer<typeof schema> & { DATA_DIR: string };

/**
 * The embedded sandbox: no real chain configured and not production. Only there may outbound
 * calls reach loopback (and, with ALLOW_PRIVATE_URLS=true, private ranges).
 */
export function isSandbox(env: Pick<Env, 'EVM_RPC_URL' | 'NODE_ENV'>): boolean {
  return env.EVM_RPC_URL === undefined && env.NODE_ENV !== 'production';
}

/**
 * Where outbound calls to URLs others chose may go, as configured (the runtime adds the
 * ports of the product's own services): see ALLOW_PRIVATE_URLS and OUTBOUND_ALLOWLIST.
 */
export function outboundSettings(env: Pick<Env, 'EVM_RPC_URL' | 'NODE_ENV' | 'ALLOW_PRIVATE_URLS' | 'OUTBOUND_ALLOWLIST'>) {
  return {
    allowLoopback: isSandbox(env) && env.ALLOW_PRIVATE_URLS !== false,
    allowPrivate: isSandbox(env) && env.ALLOW_PRIVATE_URLS === true,
    allowlist: env.OUTBOUND_ALLOWLIST,
  };
}

/**
 * The environment of the embedded Temporal dev server: this process's without OTEL_*, which
 * configure Purser's traces; the server would take them for its own (and refuses `console`).
 */
export function devServerEnvironment(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(source).filter(([name]) => !name.startsWith('OTEL_')));
}

/**
 * Why a process running one role (RUN_SERVER=false or RUN_WORKER=false: a server or a worker of
 * a split deployment) needs a master key it is given: a key generated under its own DATA_DIR is
 * one no other process has, so a worker could not decrypt what a server encrypted. Only the
 * whole product in one process (npm start) generates one. scripts/start.mjs says the same.
 */
export const MASTER_KEY_REQUIRED =
  'must be set (or MASTER_KEY_FILE) when this process runs one role (RUN_SERVER=false or RUN_WORKER=false): every server and worker of a deployment shares one key, so none is generated (openssl rand -base64 32; docs/production.md, "Keys")';

/** The whole product in this process, as `npm start` runs it. */
export function runsEveryRole(env: Pick<Env, 'RUN_SERVER' | 'RUN_WORKER'>): boolean {
  return env.RUN_SERVER && env.RUN_WORKER;
}

export class EnvError extends Error {
  override name = 'EnvError';
}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings mean "unset" (docker-compose and shells often pass VAR= through).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = schema
    .refine((env) => env.MASTER_KEY === undefined || env.MASTER_KEY_FILE === undefined, {
      path: ['MASTER_KEY_FILE'],
      message: 'set MASTER_KEY or MASTER_KEY_FILE, not both',
    })
    .refine((env) => runsEveryRole(env) || env.MASTER_KEY !== undefined || env.MASTER_KEY_FILE !== undefined, {
      path: ['MASTER_KEY'],
      message: MASTER_KEY_REQUIRED,
    })
    .refine((env) => env.METRICS_PORT === undefined || env.METRICS_PORT !== env.PORT, {
      path: ['METRICS_PORT'],
      message: 'must differ from PORT',
    })
    .refine((env) => env.OPENAI_BASE_URL === undefined || env.OPENAI_API_KEY !== undefined, {
      path: ['OPENAI_API_KEY'],
      message: 'must be set with OPENAI_BASE_URL (any non-empty value for a server that needs no key)',
    })
    .refine((env) => env.ALLOW_PRIVATE_URLS !== true || isSandbox(env), {
      path: ['ALLOW_PRIVATE_URLS'],
      message:
        'must not be true outside the sandbox (EVM_RPC_URL is set or NODE_ENV is production): outbound calls there reach public addresses only; name internal hosts in OUTBOUND_ALLOWLIST instead',
    })
    .safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return { ...result.data, DATA_DIR: path.resolve(result.data.DATA_DIR) };
}
