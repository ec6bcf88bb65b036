import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { fastifyTrustProxy, type TrustProxy } from './trust-proxy';

/** The client address Fastify settles on for a request from `peer` carrying `forwardedFor`. */
async function clientAddress(trust: TrustProxy | undefined, peer: string, forwardedFor: string): Promise<string> {
  const app = Fastify({ trustProxy: fastifyTrustProxy(trust) });
  app.get('/', async (request) => ({ ip: request.ip }));
  try {
    const response = await app.inject({ method: 'GET', url: '/', remoteAddress: peer, headers: { 'x-forwarded-for': forwardedFor } });
    return response.json().ip;
  } finally {
    await app.close();
  }
}

describe('fastifyTrustProxy', () => {
  it('ignores X-Forwarded-For when nothing is trusted', async () => {
    for (const trust of [undefined, false, 0] as const) expect(await clientAddress(trust, '10.0.0.2', '198.51.100.1')).toBe('10.0.0.2');
  });

  it('believes as many hops as it is told, however many a client forged before them', async () => {
    // client 192.0.2.1 -> proxy 10.0.0.1 -> proxy 10.0.0.2 -> server; the client wrote 203.0.113.9 itself.
    const header = '203.0.113.9, 192.0.2.1, 10.0.0.1';
    expect(await clientAddress(1, '10.0.0.2', header)).toBe('10.0.0.1');
    expect(await clientAddress(2, '10.0.0.2', header)).toBe('192.0.2.1');
  });

  it('believes listed proxies only, by address or CIDR block', async () => {
    const header = '203.0.113.9, 192.0.2.1';
    expect(await clientAddress(['10.0.0.0/24'], '10.0.0.2', header)).toBe('192.0.2.1');
    // A peer that is not a listed proxy is the client, whatever it writes.
    expect(await clientAddress(['10.0.0.0/24'], '198.51.100.4', header)).toBe('198.51.100.4');
  });
});
