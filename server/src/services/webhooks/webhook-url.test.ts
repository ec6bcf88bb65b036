import { describe, expect, it } from 'vitest';
import { isAppError } from '@purser/core';
import { assertWebhookUrlAllowed, isPublicAddress, PRIVATE_ADDRESS_MESSAGE, publicOnlyLookup, PrivateAddressError } from './webhook-url';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, CGNAT, unspecified, multicast and reserved IPv4', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.10',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('accepts public IPv4, including neighbours of the refused ranges', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.255.0.1', '11.0.0.1', '192.169.0.1']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses loopback, unspecified, unique-local, link-local and multicast IPv6', () => {
    for (const address of ['::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1', '2001:db8::1']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('checks the IPv4 inside mapped, NAT64 and 6to4 addresses', () => {
    expect(isPublicAddress('::ffff:127.0.0.1')).toBe(false);
    expect(isPublicAddress('::ffff:7f00:1')).toBe(false);
    expect(isPublicAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isPublicAddress('64:ff9b::a9fe:a9fe')).toBe(false); // 169.254.169.254
    expect(isPublicAddress('2002:c0a8:0101::1')).toBe(false); // 192.168.1.1
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

async function messageOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return error.message;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('assertWebhookUrlAllowed', () => {
  it('allows loopback URLs when private URLs are allowed (sandbox and tests)', async () => {
    await expect(assertWebhookUrlAllowed('http://127.0.0.1:9/hook', { allowPrivateUrls: true })).resolves.toBeUndefined();
  });

  it('refuses loopback, private and metadata addresses, literal or by name, when they are not', async () => {
    for (const url of ['http://127.0.0.1/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'http://10.0.0.1/', 'http://localhost:8080/', 'http://[::ffff:127.0.0.1]/']) {
      expect(await messageOf(assertWebhookUrlAllowed(url, { allowPrivateUrls: false })), url).toBe(PRIVATE_ADDRESS_MESSAGE);
    }
  });

  it('refuses other schemes even if a caller skipped the contract', async () => {
    expect(await messageOf(assertWebhookUrlAllowed('ftp://8.8.8.8/', { allowPrivateUrls: true }))).toBe('Webhook URL must be an absolute http:// or https:// URL');
  });

  it('accepts a public IP literal without any lookup', async () => {
    await expect(assertWebhookUrlAllowed('https://8.8.8.8/hook', { allowPrivateUrls: false })).resolves.toBeUndefined();
  });
});

describe('publicOnlyLookup', () => {
  it('fails the connection lookup of a name that resolves to loopback', async () => {
    const error = await new Promise<unknown>((resolve) => publicOnlyLookup('localhost', {}, (err) => resolve(err)));
    expect(error).toBeInstanceOf(PrivateAddressError);
  });
});
