/**
 * Where webhooks may be sent. Only http(s); and unless the deployment allows private URLs
 * (the embedded sandbox, tests), only hosts whose every address is public: no loopback,
 * private, link-local, CGNAT, unspecified, multicast, reserved or documentation ranges, in
 * IPv4 and IPv6 (with the IPv4 inside mapped, NAT64 and 6to4 addresses checked as IPv4).
 *
 * The check runs when an endpoint is registered and again on every delivery, inside the
 * connection's own DNS lookup (`publicOnlyLookup`), so a name that re-resolves to a private
 * address after registration (DNS rebinding) is refused at the moment it would be reached.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { AppError } from '@purser/core';

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001::', 32], // Teredo: the IPv4 inside is obfuscated, so refuse it whole
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** The 8 groups of an IPv6 address, dotted IPv4 tails included; null when it is not IPv6. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  const groups = [...left, ...zeros, ...right];
  return groups.length === 8 ? groups : null;
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedIpv4(groups: number[]): string | null {
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return v4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1, g2);
  return null;
}

/** True when `address` (an IP literal) is a public unicast address. Anything unparsable is not. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  if (!groups) return false;
  const inner = embeddedIpv4(groups);
  if (inner !== null) return isPublicAddress(inner);
  return !NON_PUBLIC.check(address.split('%')[0]!, 'ipv6');
}

/** The host of a URL as DNS and isIP see it: IPv6 literals without their brackets. */
export function urlHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

export const PRIVATE_ADDRESS_MESSAGE = 'Webhook URL must resolve to a public address; loopback, private and link-local addresses are refused';

/** Raised by publicOnlyLookup; the delivery log shows its message. */
export class PrivateAddressError extends Error {
  override name = 'PrivateAddressError';
  readonly code = 'EPRIVATEADDRESS';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A drop-in for `dns.lookup` (the `lookup` option of http.request and net.connect) that
 * fails unless every address of the name is public. The socket connects to an address this
 * function returned, so there is no gap between the check and the connection.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused || addresses.length === 0) return callback(new PrivateAddressError(`${hostname} resolves to a non-public address`), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

/**
 * The registration-time check of an endpoint URL (already http(s) and credential-free by its
 * contract): with private URLs disallowed, the host must resolve, and only to public addresses.
 */
export async function assertWebhookUrlAllowed(url: string, options: { allowPrivateUrls: boolean }): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new AppError('VALIDATION_FAILED', 'Webhook URL must be an absolute http:// or https:// URL');
  if (options.allowPrivateUrls) return;
  const host = urlHost(parsed);
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw new AppError('VALIDATION_FAILED', PRIVATE_ADDRESS_MESSAGE);
    return;
  }
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  ).catch(() => {
    throw new AppError('VALIDATION_FAILED', `Webhook URL host ${host} could not be resolved`);
  });
  if (addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw new AppError('VALIDATION_FAILED', PRIVATE_ADDRESS_MESSAGE);
  }
}
