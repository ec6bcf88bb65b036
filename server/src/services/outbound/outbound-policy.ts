/**
 * Where outbound requests to URLs someone else chose may go: x402 upstreams (an agent's
 * choice) and webhook endpoints (an owner's). Those parties may be hostile, so a URL is
 * checked by its name, by its literal address, and by every address its name resolves to,
 * before any connection is made and inside the connection's own DNS lookup, so the socket
 * only ever reaches an address the check saw (no window for DNS rebinding).
 *
 * Always refused unless the allowlist names them: link-local (cloud metadata services live
 * there), cloud metadata names and addresses, unspecified, multicast, documentation and
 * other reserved ranges, in IPv4 and IPv6 (the IPv4 inside mapped, NAT64 and 6to4 addresses
 * is checked as IPv4). Private ranges are refused unless the policy allows them. Loopback is
 * reachable only in the embedded sandbox, where developers run their sellers and webhook
 * receivers on their own machine, and even there never on the ports of the product's own
 * services (the Temporal frontend and UI, the database socket).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from '@purser/core';

/** How names become addresses: dns.lookup, or a test's own answers. */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export type AllowlistEntry = { host: string } | { network: string; prefix: number; family: 'ipv4' | 'ipv6' };

export interface OutboundPolicy {
  /** Loopback (127.0.0.0/8, ::1) is reachable: the embedded sandbox. */
  readonly allowLoopback: boolean;
  /** Private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) are reachable. */
  readonly allowPrivate: boolean;
  /** Hosts and networks reachable whatever their address (OUTBOUND_ALLOWLIST). */
  readonly allowlist: readonly AllowlistEntry[];
  /** Loopback ports of the product's own services, refused even where loopback is allowed. */
  readonly deniedLoopbackPorts: readonly number[];
  /** Name resolution; dns.lookup when absent. */
  readonly resolve?: Resolve;
}

/** Nothing but public addresses: the policy outside the sandbox with no allowlist. */
export function createOutboundPolicy(options: Partial<OutboundPolicy> = {}): OutboundPolicy {
  return { allowLoopback: false, allowPrivate: false, allowlist: [], deniedLoopbackPorts: [], ...options };
}

/** The same policy with one more host allowed (the sandbox's own paid API on this server). */
export function allowingHost(policy: OutboundPolicy, host: string): OutboundPolicy {
  return { ...policy, allowlist: [...policy.allowlist, { host: normalizeHost(host) }] };
}

// ---------------------------------------------------------------- address classes

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'reserved';

/** Checked in this order, so ::1 is loopback before ::/96 makes it reserved. */
const RANGES: ReadonlyArray<[Exclude<AddressClass, 'public'>, 'ipv4' | 'ipv6', string, number]> = [
  ['metadata', 'ipv4', '100.100.100.200', 32], // Alibaba Cloud metadata (inside CGNAT space)
  ['metadata', 'ipv4', '168.63.129.16', 32], // Azure WireServer (a public address)
  ['metadata', 'ipv6', 'fd00:ec2::254', 128], // AWS metadata over IPv6 (inside unique-local space)
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['loopback', 'ipv6', '::1', 128],
  ['link-local', 'ipv4', '169.254.0.0', 16], // AWS, GCP, Azure metadata live here
  ['link-local', 'ipv6', 'fe80::', 10],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['private', 'ipv4', '100.64.0.0', 10], // carrier-grade NAT
  ['private', 'ipv6', 'fc00::', 7], // unique local
  ['private', 'ipv6', 'fec0::', 10], // site-local (deprecated)
  ['reserved', 'ipv4', '0.0.0.0', 8], // "this network": connecting to 0.0.0.0 reaches the local host
  ['reserved', 'ipv4', '192.0.0.0', 24], // IETF protocol assignments
  ['reserved', 'ipv4', '192.0.2.0', 24], // documentation
  ['reserved', 'ipv4', '192.88.99.0', 24], // 6to4 relay anycast
  ['reserved', 'ipv4', '198.18.0.0', 15], // benchmarking
  ['reserved', 'ipv4', '198.51.100.0', 24], // documentation
  ['reserved', 'ipv4', '203.0.113.0', 24], // documentation
  ['reserved', 'ipv4', '224.0.0.0', 4], // multicast
  ['reserved', 'ipv4', '240.0.0.0', 4], // reserved, broadcast
  ['reserved', 'ipv6', '::', 128], // unspecified
  ['reserved', 'ipv6', '::', 96], // IPv4-compatible (deprecated)
  ['reserved', 'ipv6', '100::', 64], // discard
  ['reserved', 'ipv6', '2001::', 32], // Teredo: the IPv4 inside is obfuscated, so refuse it whole
  ['reserved', 'ipv6', '2001:db8::', 32], // documentation
  ['reserved', 'ipv6', 'ff00::', 8], // multicast
];

const CLASS_LISTS = RANGES.map(([kind, family, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { kind, family, list };
});

/**
 * Names of cloud metadata services, refused by name before any lookup (their addresses are
 * refused too, but a resolver may answer anything for them).
 */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
  'metadata.packet.net',
]);

/** The 8 groups of an IPv6 address, dotted IPv4 tails included; null when it is not IPv6. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
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

/** The IPv4 address an IPv6 one carries, and how: mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) or 6to4 (2002::/16). */
function embeddedIpv4(groups: number[]): { address: string; mapped: boolean } | null {
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroHead && g5 === 0xffff) return { address: v4(g6, g7), mapped: true };
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return { address: v4(g6, g7), mapped: false };
  if (g0 === 0x2002) return { address: v4(g1, g2), mapped: false };
  return null;
}

/** An IP literal without its IPv6 zone (fe80::1%eth0); null for anything else. */
function plainAddress(address: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const plain = address.split('%')[0]!;
  const family = isIP(plain);
  return family === 4 ? { address: plain, family: 'ipv4' } : family === 6 ? { address: plain, family: 'ipv6' } : null;
}

/** What kind of address `address` is; anything that is not an IP literal counts as reserved. */
export function classifyAddress(address: string): AddressClass {
  const ip = plainAddress(address);
  if (!ip) return 'reserved';
  if (ip.family === 'ipv6') {
    const inner = embeddedIpv4(ipv6Groups(ip.address) ?? []);
    if (inner) {
      const kind = classifyAddress(inner.address);
      // A mapped address is the IPv4 host itself; NAT64 and 6to4 go through a gateway, and
      // a non-public address behind one is never a destination.
      return inner.mapped || kind === 'public' ? kind : 'reserved';
    }
  }
  const match = CLASS_LISTS.find(({ family, list }) => family === ip.family && list.check(ip.address, family));
  return match?.kind ?? 'public';
}

/** True when `address` is a public unicast address: reachable under every policy. */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

// ---------------------------------------------------------------- allowlist

/** A host as URLs and resolvers see it: lower case, no brackets, no trailing dot. */
function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** One OUTBOUND_ALLOWLIST entry: a host name, an IP address or a CIDR network. Throws on anything else. */
export function parseAllowlistEntry(text: string): AllowlistEntry {
  const entry = normalizeHost(text.trim());
  const [network = '', prefixText, extra] = entry.split('/');
  const ip = plainAddress(network);
  if (ip && !network.includes('%') && extra === undefined) {
    const max = ip.family === 'ipv4' ? 32 : 128;
    const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
    if (prefix >= 0 && prefix <= max) return { network: ip.address, prefix, family: ip.family };
  } else if (prefixText === undefined && HOST_NAME.test(entry)) {
    return { host: entry };
  }
  throw new Error(`"${text.trim()}" is not a host name, an IP address or a CIDR network`);
}

/** A comma-separated allowlist; empty entries are skipped. */
export function parseAllowlist(text: string | undefined): AllowlistEntry[] {
  return (text ?? '')
    .split(',')
    .filter((entry) => entry.trim() !== '')
    .map(parseAllowlistEntry);
}

function isAllowlisted(policy: OutboundPolicy, host: string, address?: string): boolean {
  const name = normalizeHost(host);
  const ip = address === undefined ? null : plainAddress(address);
  const inner = ip?.family === 'ipv6' ? embeddedIpv4(ipv6Groups(ip.address) ?? []) : null;
  return policy.allowlist.some((entry) => {
    if ('host' in entry) return entry.host === name || (ip !== null && entry.host === ip.address);
    if (!ip) return false;
    const list = new BlockList();
    list.addSubnet(entry.network, entry.prefix, entry.family);
    return list.check(ip.address, ip.family) || (inner?.mapped === true && list.check(inner.address, 'ipv4'));
  });
}

// ---------------------------------------------------------------- checks

const REASONS: Record<Exclude<AddressClass, 'public' | 'loopback'>, string> = {
  private: 'a private network address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address',
  reserved: 'an unspecified, multicast or reserved address',
};

/**
 * Why a connection to `address` on `port` (for `host`, the name in the URL) is refused, or
 * null when it is allowed.
 */
export function checkAddress(policy: OutboundPolicy, address: string, port: number, host: string = address): string | null {
  if (isAllowlisted(policy, host, address)) return null;
  const kind = classifyAddress(address);
  if (kind === 'public') return null;
  if (kind === 'loopback') {
    if (!policy.allowLoopback) return 'a loopback address';
    if (policy.deniedLoopbackPorts.includes(port)) return `a loopback address on port ${port}, which belongs to this deployment's own services`;
    return null;
  }
  if (kind === 'private' && policy.allowPrivate) return null;
  return REASONS[kind];
}

/** Why a host name is refused by name alone (before any lookup), or null. */
function checkName(policy: OutboundPolicy, host: string): string | null {
  const name = normalizeHost(host);
  if (isAllowlisted(policy, name)) return null;
  if (METADATA_NAMES.has(name)) return 'a cloud metadata service name';
  if ((name === 'localhost' || name.endsWith('.localhost')) && !policy.allowLoopback) return 'a loopback name';
  return null;
}

function refusal(host: string, detail: string): AppError {
  return new AppError('URL_NOT_ALLOWED', `URL refused: ${host} ${detail}`);
}

/** The host of a URL as DNS and isIP see it (IPv6 without brackets), and the port it connects to. */
export function urlTarget(url: URL): { host: string; port: number } {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host, port };
}

/**
 * The check that needs no lookup: the URL's host by name, or its literal address (a literal
 * never goes through the connection's lookup, so this is its only check). Throws URL_NOT_ALLOWED.
 */
export function assertHostAllowed(policy: OutboundPolicy, url: URL): void {
  const { host, port } = urlTarget(url);
  if (isIP(host)) {
    const reason = checkAddress(policy, host, port);
    if (reason) throw refusal(host, `is ${reason}`);
    return;
  }
  const reason = checkName(policy, host);
  if (reason) throw refusal(host, `is ${reason}`);
}

function answersRefusal(policy: OutboundPolicy, host: string, port: number, addresses: readonly LookupAddress[]): AppError | null {
  for (const { address } of addresses) {
    const reason = checkAddress(policy, address, port, host);
    if (reason) return refusal(host, `resolves to ${address}, ${reason}`);
  }
  return null;
}

const defaultResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * A drop-in for dns.lookup (the `lookup` option of http.request) for one connection to
 * `port`: it resolves every address of the name and fails with URL_NOT_ALLOWED when any one
 * of them is refused, so the socket connects to an address this check saw.
 */
export function checkedLookup(policy: OutboundPolicy, port: number): LookupFunction {
  const resolve = policy.resolve ?? defaultResolve;
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = answersRefusal(policy, hostname, port, addresses);
        if (refused) return callback(refused, []);
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family ? addresses.filter((entry) => entry.family === family) : addresses;
        if (usable.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
        if (options.all) return callback(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

/**
 * The check of a URL that is stored to be called later (a webhook endpoint): by name or
 * literal, then every address its name resolves to now. A name that does not resolve is
 * let through: the connection's own lookup checks it again on every call.
 */
export async function assertUrlAllowed(policy: OutboundPolicy, url: URL): Promise<void> {
  assertHostAllowed(policy, url);
  const { host, port } = urlTarget(url);
  if (isIP(host)) return;
  const addresses = await (policy.resolve ?? defaultResolve)(host).catch(() => []);
  const refused = answersRefusal(policy, host, port, addresses);
  if (refused) throw refused;
}
