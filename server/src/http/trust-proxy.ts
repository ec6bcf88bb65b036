/**
 * TRUST_PROXY as Fastify's `trustProxy`. Addresses and CIDR blocks pass through (proxy-addr
 * checks each hop against them). Fastify 5 fails a bare hop count closed, because a count cannot
 * tell the deployment's proxy from a client that connects directly and writes the header
 * itself; a count is therefore a trust function over the hop index, and is only safe when
 * the server is reachable through its proxies alone. Prefer addresses where they are known.
 */
import type { FastifyServerOptions } from 'fastify';
import type { TrustProxy } from '../deps';

export type { TrustProxy } from '../deps';

export function fastifyTrustProxy(trust: TrustProxy | undefined): FastifyServerOptions['trustProxy'] {
  if (trust === undefined || trust === false || trust === 0) return false;
  if (typeof trust === 'number') {
    const hops = trust;
    // Hop 0 is the socket's peer, hop 1 the address it forwarded for, and so on.
    return (_address: string, hop: number) => hop < hops;
  }
  return trust;
}
