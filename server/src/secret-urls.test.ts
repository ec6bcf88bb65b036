import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { secretUrlRedactor, secretUrlsOf } from './secret-urls';
import { connectChain } from './services/chain/network/connect-chain';

/** An RPC provider's key, as Alchemy puts it in the path and others in the query. */
const KEY = 'alchemyKey0123456789abcdefXYZ';

/** A JSON-RPC node that fails every call, as a provider does when it is down. */
let node: Server;
let origin: string;

beforeAll(async () => {
  node = createServer((request, response) => request.resume().on('end', () => response.writeHead(500).end('upstream unavailable')));
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => node.close(() => resolve())));

/** The error connecting to a real network gives when its RPC URL fails (connect-chain.ts, viem's own). */
async function failedConnection(rpcUrl: string): Promise<Error> {
  const error = await connectChain({ network: 'eip155:84532', facilitatorUrl: 'https://facilitator.example' }, rpcUrl).then(
    () => null,
    (caught: unknown) => caught as Error,
  );
  expect(error).toBeInstanceOf(Error);
  return error!;
}

function capturingLogger(env: Parameters<typeof createLogger>[0]) {
  const lines: string[] = [];
  return { logger: createLogger(env, { write: (line: string) => void lines.push(line) }), lines };
}

describe('secret URLs in log lines', () => {
  it.each([
    ['in the path', `/v2/${KEY}`],
    ['in the query', `/rpc?apikey=${KEY}`],
  ])('keeps an RPC key %s out of the line logged when a call to the node fails, the host kept', async (_where, rest) => {
    const rpcUrl = `${origin}${rest}`;
    const error = await failedConnection(rpcUrl);
    // viem quotes the URL whole: without redaction the key would be in the line.
    expect(`${error.message}${error.stack}`).toContain(KEY);

    const { logger, lines } = capturingLogger({ LOG_LEVEL: 'info', LOG_PRETTY: false, EVM_RPC_URL: rpcUrl });
    logger.fatal({ err: error }, 'Purser could not start');
    logger.warn({ err: new Error('wrapped', { cause: error }), rpc: rpcUrl }, `a read failed: ${error.message}`);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(KEY);
      expect(line).toContain(`${origin}/[redacted]`);
    }
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 60, msg: 'Purser could not start', err: { type: expect.any(String) } });
  });

  it('keeps the password of a database or Redis URL out, and leaves file paths and short words alone', () => {
    const redact = secretUrlRedactor(secretUrlsOf({ DATABASE_URL: 'postgresql://purser:s3cret-Passw0rd-long-enough@db:5432/purser', REDIS_URL: 'redis://:hunter2@cache:6379' }));
    expect(redact('connect postgresql://purser:s3cret-Passw0rd-long-enough@db:5432/purser failed')).toBe('connect postgresql://db:5432/[redacted] failed');
    expect(redact('password s3cret-Passw0rd-long-enough was refused')).toBe('password [redacted] was refused');
    expect(redact('redis://:hunter2@cache:6379 is down')).toBe('redis://cache:6379/[redacted] is down');
    expect(redact('at /srv/purser/server/src/main.ts:12')).toBe('at /srv/purser/server/src/main.ts:12');
  });

  it('changes nothing when no configured URL carries a secret', () => {
    const redact = secretUrlRedactor(secretUrlsOf({ SANDBOX_CHAIN_RPC_URL: 'http://chain:8545', EVM_RPC_URL: 'https://sepolia.base.org' }));
    expect(redact('http://chain:8545 and https://sepolia.base.org answered')).toBe('http://chain:8545 and https://sepolia.base.org answered');
  });
});

describe("this product's own tokens in request URLs", () => {
  const TOKEN = 'q2dTzXg4l1Yh9oN3vR8bWk0eJ6cUaPfS-_mB7iL5tQx';

  it('keeps a budget approval link token out of the request log, in the page path and in the tRPC input that reads it', () => {
    const { logger, lines } = capturingLogger({ LOG_LEVEL: 'info', LOG_PRETTY: false });
    const input = encodeURIComponent(JSON.stringify({ token: TOKEN }));
    logger.info({ req: { method: 'GET', url: `/approve/${TOKEN}` } }, 'incoming request');
    logger.info({ req: { method: 'GET', url: `/trpc/paymentSessions.approvalLink?input=${input}` } }, 'incoming request');
    logger.info({ body: { token: TOKEN, approve: true } }, 'decided by link');
    logger.info({ req: { method: 'GET', url: `/auth?next=${encodeURIComponent(`/approve/${TOKEN}`)}` } }, 'incoming request');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).not.toContain(TOKEN);
    expect(lines[0]).toContain('/approve/[redacted]');
    expect(lines[1]).toContain('/trpc/paymentSessions.approvalLink?input=');
  });

  it('leaves short path segments and other fields alone', () => {
    const redact = secretUrlRedactor([]);
    expect(redact('/approve/abc and {"token":"short"} and /agents/123')).toBe('/approve/abc and {"token":"short"} and /agents/123');
  });
});
