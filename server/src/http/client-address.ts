/**
 * The client address a per-address limit counts under. An IPv6 client counts by its /64: one
 * line or one host is routed a whole /64, and stepping through its addresses costs nothing. An
 * IPv4-mapped IPv6 address (`::ffff:198.51.100.7`, what a dual-stack socket reports for an IPv4
 * client) counts as the IPv4 address. @fastify/rate-limit keys its default limits this way
 * (normalizeIP, which parses with the ip-address library); the limits with keys of their own
 * use the same function.
 */
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

export function clientAddressKey(request: Pick<FastifyRequest, 'ip'>): string {
  return normalizeIP(request.ip);
}
