import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  assertUrlAllowed,
  checkAddress,
  checkedLookup,
  classifyAddress,
  createOutboundPolicy,
  isPublicAddress,
  parseAllowlist,
  type OutboundPolicy,
  type Resolve,
} from './outbound-policy';

const strict = createOutboundPolicy();
const sandbox = createOutboundPolicy({ allowLoopback: true, deniedLoopbackPorts: [7233, 8233] });
const everything = createOutboundPolicy({ allowLoopback: true, allowPrivate: true });

/** A resolver with fixed answers that records what it was asked. */
function fakeResolve(answers: Record<string, string[]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    asked.push(hostname);
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

describe('classifyAddress', () => {
  it('tells loopback, private, link-local, metadata and reserved IPv4 apart', () => {
    const cases: Array<[string, string]> = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['100.100.100.200', 'metadata'],
      ['168.63.129.16', 'metadata'],
      ['0.0.0.0', 'reserved'],
      ['224.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
      ['192.0.2.10', 'reserved'],
    ];
    for (const [address, kind] of cases) expect(classifyAddress(address), address).toBe(kind);
  });

  it('accepts public IPv4, including neighbours of the refused ranges', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.255.0.1', '11.0.0.1', '192.169.0.1']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('tells IPv6 loopback, unspecified, unique-local, link-local, multicast and metadata apart', () => {
    const cases: Array<[string, string]> = [
      ['::1', 'loopback'],
      ['::', 'reserved'],
      ['fc00::1', 'private'],
      ['fd12:3456::1', 'private'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['ff02::1', 'reserved'],
      ['2001:db8::1', 'reserved'],
      ['fd00:ec2::254', 'metadata'],
    ];
    for (const [address, kind] of cases) expect(classifyAddress(address), address).toBe(kind);
  });

  it('classifies the IPv4 inside mapped addresses as that address, and refuses non-public ones behind NAT64 and 6to4', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('::ffff:7f00:1')).toBe('loopback');
    expect(classifyAddress('::ffff:10.0.0.1')).toBe('private');
    expect(classifyAddress('::ffff:169.254.169.254')).toBe('link-local');
    expect(classifyAddress('::ffff:a9fe:a9fe')).toBe('link-local');
    expect(classifyAddress('64:ff9b::a9fe:a9fe')).toBe('reserved'); // 169.254.169.254
    expect(classifyAddress('64:ff9b::7f00:1')).toBe('reserved'); // 127.0.0.1 behind a gateway is not ours
    expect(classifyAddress('2002:c0a8:0101::1')).toBe('reserved'); // 192.168.1.1
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('64:ff9b::808:808')).toBe(true);
  });

  it('accepts public IPv6 and refuses what is not an address', () => {
    expect(isPublicAddress('2606:4700:4700::1111')).toBe(true);
    expect(isPublicAddress('2a00:1450:4001:80b::200e')).toBe(true);
    expect(isPublicAddress('localhost')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});

describe('checkAddress', () => {
  it('always refuses link-local, metadata and reserved addresses, whatever the policy allows', () => {
    for (const address of ['169.254.169.254', 'fe80::1', '::ffff:169.254.169.254', '100.100.100.200', 'fd00:ec2::254', '0.0.0.0', '::', '224.0.0.1']) {
      expect(checkAddress(everything, address, 80), address).not.toBeNull();
    }
  });

  it('refuses private ranges unless the policy allows them', () => {
    for (const address of ['10.0.0.7', '172.20.1.1', '192.168.0.10', '100.64.1.1', 'fd12::1', '::ffff:10.0.0.7']) {
      expect(checkAddress(sandbox, address, 80), address).toBe('a private network address');
      expect(checkAddress(everything, address, 80), address).toBeNull();
    }
  });

  it('allows loopback only where the policy allows it', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
      expect(checkAddress(strict, address, 8080), address).toBe('a loopback address');
      expect(checkAddress(sandbox, address, 8080), address).toBeNull();
    }
  });

  it("refuses the loopback ports of the product's own services even where loopback is allowed", () => {
    expect(checkAddress(sandbox, '127.0.0.1', 7233)).toMatch(/port 7233, which belongs to this deployment's own services/);
    expect(checkAddress(sandbox, '::1', 8233)).toMatch(/port 8233/);
    expect(checkAddress(sandbox, '::ffff:127.0.0.1', 7233)).toMatch(/port 7233/);
    // Another host's port 7233 is not ours.
    expect(checkAddress(sandbox, '8.8.8.8', 7233)).toBeNull();
  });

  it('lets through what the allowlist names, by address, network or host', () => {
    const policy = createOutboundPolicy({ allowlist: parseAllowlist('10.1.2.3, 192.168.0.0/16,internal.corp,metadata.google.internal, 169.254.169.254') });
    expect(checkAddress(policy, '10.1.2.3', 443)).toBeNull();
    expect(checkAddress(policy, '::ffff:10.1.2.3', 443)).toBeNull();
    expect(checkAddress(policy, '10.1.2.4', 443)).toBe('a private network address');
    expect(checkAddress(policy, '192.168.44.5', 443)).toBeNull();
    expect(checkAddress(policy, '10.9.9.9', 443, 'internal.corp')).toBeNull();
    expect(checkAddress(policy, '169.254.169.254', 80)).toBeNull();
    expect(checkAddress(createOutboundPolicy({ ...sandbox, allowlist: parseAllowlist('127.0.0.1') }), '127.0.0.1', 7233)).toBeNull();
  });
});

describe('parseAllowlist', () => {
  it('reads host names, IP addresses and CIDR networks, skipping empty entries', () => {
    expect(parseAllowlist(' Seller.Internal. , 10.0.0.0/8,,fd00::/8, [::1], 192.168.1.10')).toEqual([
      { host: 'seller.internal' },
      { network: '10.0.0.0', prefix: 8, family: 'ipv4' },
      { network: 'fd00::', prefix: 8, family: 'ipv6' },
      { network: '::1', prefix: 128, family: 'ipv6' },
      { network: '192.168.1.10', prefix: 32, family: 'ipv4' },
    ]);
    expect(parseAllowlist(undefined)).toEqual([]);
  });

  it('refuses what is neither', () => {
    for (const entry of ['10.0.0.0/33', 'http://seller.example', 'seller.example:8080', 'a b', '10.0.0.0/8/1', '*.example.com']) {
      expect(() => parseAllowlist(entry), entry).toThrow(/is not a host name, an IP address or a CIDR network/);
    }
  });
});

function lookupOf(policy: OutboundPolicy, port: number, hostname: string, options: { all?: boolean; family?: number } = {}) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
    checkedLookup(policy, port)(hostname, options, (error, address, family) => resolve({ error, address, family })),
  );
}

describe('checkedLookup', () => {
  it('refuses a name when any one of its answers is refused', async () => {
    const resolve = fakeResolve({ 'mixed.test': ['127.0.0.1', '169.254.169.254'], 'meta.test': ['169.254.169.254'] });
    const policy = { ...sandbox, resolve };
    for (const name of ['mixed.test', 'meta.test']) {
      const { error } = await lookupOf(policy, 80, name, { all: true });
      expect(error, name).toMatchObject({ name: 'AppError', code: 'URL_NOT_ALLOWED', message: `URL refused: ${name} resolves to 169.254.169.254, a link-local address` });
    }
  });

  it('answers with the addresses it checked, as a list or as the first one', async () => {
    const policy = { ...sandbox, resolve: fakeResolve({ 'local.test': ['127.0.0.1', '::1'] }) };
    expect(await lookupOf(policy, 8080, 'local.test', { all: true })).toEqual({
      error: null,
      address: [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ],
      family: undefined,
    });
    expect(await lookupOf(policy, 8080, 'local.test', { family: 6 })).toEqual({ error: null, address: '::1', family: 6 });
  });

  it("refuses a name resolving to loopback on a port of the product's own services", async () => {
    const policy = { ...sandbox, resolve: fakeResolve({ 'local.test': ['127.0.0.1'] }) };
    expect((await lookupOf(policy, 7233, 'local.test')).error).toMatchObject({ code: 'URL_NOT_ALLOWED' });
  });

  it('resolves through dns.lookup when the policy brings no resolver', async () => {
    const { error } = await lookupOf(strict, 80, 'localhost', { all: true });
    expect(error).toMatchObject({ code: 'URL_NOT_ALLOWED', message: expect.stringMatching(/^URL refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/) });
  });

  it('passes resolution failures on as they are', async () => {
    const { error } = await lookupOf({ ...sandbox, resolve: fakeResolve({}) }, 80, 'nowhere.test');
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('assertUrlAllowed', () => {
  it('refuses metadata names by name, without resolving them', async () => {
    const resolve = fakeResolve({ 'metadata.google.internal': ['8.8.8.8'] });
    for (const url of ['http://metadata.google.internal/computeMetadata/v1/', 'http://METADATA.google.internal./', 'http://metadata/', 'http://instance-data/latest/']) {
      await expect(assertUrlAllowed({ ...everything, resolve }, new URL(url)), url).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED', message: expect.stringContaining('a cloud metadata service name') });
    }
    expect(resolve.asked).toEqual([]);
  });

  it('refuses localhost names without resolving them when loopback is not allowed', async () => {
    const resolve = fakeResolve({ localhost: ['127.0.0.1'] });
    await expect(assertUrlAllowed({ ...strict, resolve }, new URL('http://localhost:8080/'))).rejects.toMatchObject({ message: 'URL refused: localhost is a loopback name' });
    await expect(assertUrlAllowed({ ...strict, resolve }, new URL('http://api.localhost/'))).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    expect(resolve.asked).toEqual([]);
  });

  it('checks literal addresses, IPv6 in brackets and IPv4 written other ways included', async () => {
    for (const url of ['http://169.254.169.254/', 'http://[fe80::1]/', 'http://[::ffff:169.254.169.254]/', 'http://0xa9fea9fe/', 'http://2852039166/', 'http://0.0.0.0:8080/']) {
      await expect(assertUrlAllowed(everything, new URL(url)), url).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    }
    await expect(assertUrlAllowed(strict, new URL('https://8.8.8.8/hook'))).resolves.toBeUndefined();
  });

  it('refuses a name that resolves to a refused address, and lets through one that does not resolve now', async () => {
    const resolve = fakeResolve({ 'rebind.test': ['169.254.169.254'], 'private.test': ['10.0.0.7'] });
    await expect(assertUrlAllowed({ ...sandbox, resolve }, new URL('https://rebind.test/hook'))).rejects.toMatchObject({
      message: 'URL refused: rebind.test resolves to 169.254.169.254, a link-local address',
    });
    await expect(assertUrlAllowed({ ...sandbox, resolve }, new URL('https://private.test/hook'))).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    await expect(assertUrlAllowed({ ...sandbox, resolve, allowlist: parseAllowlist('private.test') }, new URL('https://private.test/hook'))).resolves.toBeUndefined();
    await expect(assertUrlAllowed({ ...sandbox, resolve }, new URL('https://not-yet.test/hook'))).resolves.toBeUndefined();
  });

  it('uses the port of the URL, or the scheme default, for the own-services check', async () => {
    const policy = createOutboundPolicy({ allowLoopback: true, deniedLoopbackPorts: [80] });
    await expect(assertUrlAllowed(policy, new URL('http://127.0.0.1/'))).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    await expect(assertUrlAllowed(policy, new URL('https://127.0.0.1/'))).resolves.toBeUndefined();
  });
});
