/**
 * The configured URLs that carry secrets, and a redactor that takes those secrets out of any
 * text: every log line (logger.ts) and every span's name, attributes, events and status
 * (tracing/redacting-span-processor.ts). RPC providers put their API key in the path
 * (https://base-mainnet.g.alchemy.com/v2/<key>) or the query, a database or Redis URL its
 * password in the userinfo; viem's errors quote the RPC URL whole in their message, and an
 * error logged or recorded on a span carries its message and stack. Redacting the line as it is
 * written catches each of them wherever it sits, however the error was serialized.
 *
 * What stays: the scheme and host (`https://base-mainnet.g.alchemy.com/[redacted]`), enough to
 * tell which provider failed.
 */
import type { Env } from './env';

export type Redact = (text: string) => string;

export const REDACTED = '[redacted]';

/** The variables whose URLs may hold a key or a password. */
export type SecretUrlEnv = Partial<
  Pick<
    Env,
    | 'EVM_RPC_URL'
    | 'SANDBOX_CHAIN_RPC_URL'
    | 'X402_FACILITATOR_URL'
    | 'DATABASE_URL'
    | 'REDIS_URL'
    | 'OPENAI_BASE_URL'
    | 'OTEL_EXPORTER_OTLP_ENDPOINT'
    | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
  >
>;

export function secretUrlsOf(env: SecretUrlEnv): string[] {
  return [
    env.EVM_RPC_URL,
    env.SANDBOX_CHAIN_RPC_URL,
    env.X402_FACILITATOR_URL,
    env.DATABASE_URL,
    env.REDIS_URL,
    env.OPENAI_BASE_URL,
    env.OTEL_EXPORTER_OTLP_ENDPOINT,
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
  ].filter((url): url is string => url !== undefined);
}

/** A path segment or query value this long is taken for a token even where it shows alone. */
const TOKEN_MIN_LENGTH = 16;

/**
 * What in `text` must not be shown of `url`, each with what shows instead: the URL whole (as
 * configured and as normalised), its `user:password@`, and its long path segments, query values
 * and password alone (a key quoted without its URL). A short path alone (a database's name) is
 * left, or every file path in a stack trace that contains it would go too. A URL with nothing
 * after its host and no password (http://127.0.0.1:8545) contributes nothing.
 */
function secretParts(url: string): Array<[string, string]> {
  if (!URL.canParse(url)) return [];
  const parsed = new URL(url);
  const rest = `${parsed.pathname === '/' ? '' : parsed.pathname}${parsed.search}${parsed.hash}`;
  if (!rest && !parsed.password) return [];
  const parts: Array<[string, string]> = [];
  const shown = `${parsed.protocol}//${parsed.host}/${REDACTED}`;
  const raw = url.trim();
  for (const whole of new Set([raw, raw.replace(/\/+$/, ''), parsed.href, parsed.href.replace(/\/+$/, '')])) parts.push([whole, shown]);
  if (parsed.password) parts.push([`${parsed.username}:${parsed.password}@`, `${REDACTED}@`]);
  const pieces = [...parsed.pathname.split('/'), ...parsed.searchParams.values(), parsed.hash.slice(1), parsed.password];
  for (const piece of pieces) if (piece.length >= TOKEN_MIN_LENGTH) parts.push([piece, REDACTED]);
  return parts;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Tokens that travel in this product's own request URLs, which the request log writes: a budget's
 * one-time approval link (`/approve/<token>`, the page, also URL-encoded in a sign-in's `next`) and the tRPC input that reads or uses it
 * (`"token":"<token>"`, URL-encoded in a GET). The token alone decides nothing (the owner must be
 * signed in), but a log is no place for it.
 */
const REQUEST_URL_TOKENS = /((?:\/|%2F)approve(?:\/|%2F))[A-Za-z0-9_-]{16,}|((?:%22|")token(?:%22|")(?::|%3A)(?:%22|"))[A-Za-z0-9_-]{16,}/g;

export function redactRequestUrlTokens(text: string): string {
  return text.replace(REQUEST_URL_TOKENS, (_match, path: string | undefined, field: string | undefined) => `${path ?? field}${REDACTED}`);
}

/** Replaces every secret part of `urls` in a text, and the request URL tokens above. */
export function secretUrlRedactor(urls: readonly string[]): Redact {
  const replacements = new Map<string, string>();
  for (const url of urls) for (const [part, shown] of secretParts(url)) if (!replacements.has(part)) replacements.set(part, shown);
  if (replacements.size === 0) return redactRequestUrlTokens;
  // Longest first: a whole URL is replaced before its path or a token within it.
  const pattern = new RegExp([...replacements.keys()].sort((a, b) => b.length - a.length).map(escape).join('|'), 'g');
  return (text) => redactRequestUrlTokens(text.replace(pattern, (part) => replacements.get(part) ?? REDACTED));
}
