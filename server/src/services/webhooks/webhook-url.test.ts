import { describe, expect, it } from 'vitest';
import { isAppError } from '@purser/core';
import { createOutboundPolicy } from '../outbound/outbound-policy';
import { assertWebhookUrlAllowed } from './webhook-url';

const sandbox = createOutboundPolicy({ allowLoopback: true });
const strict = createOutboundPolicy();

async function errorOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('assertWebhookUrlAllowed', () => {
  it('allows loopback receivers in the sandbox', async () => {
    await expect(assertWebhookUrlAllowed('http://127.0.0.1:9/hook', sandbox)).resolves.toBeUndefined();
  });

  it('refuses loopback, private and metadata addresses, literal or by name, outside it', async () => {
    for (const url of ['http://127.0.0.1/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'http://10.0.0.1/', 'http://localhost:8080/', 'http://[::ffff:127.0.0.1]/']) {
      expect((await errorOf(assertWebhookUrlAllowed(url, strict))).code, url).toBe('URL_NOT_ALLOWED');
    }
  });

  it('refuses link-local and metadata hosts in the sandbox too', async () => {
    for (const url of ['http://169.254.169.254/latest', 'http://[fe80::1]/hook', 'http://metadata.google.internal/']) {
      expect((await errorOf(assertWebhookUrlAllowed(url, sandbox))).code, url).toBe('URL_NOT_ALLOWED');
    }
  });

  it('refuses other schemes even if a caller skipped the contract', async () => {
    expect(await errorOf(assertWebhookUrlAllowed('ftp://8.8.8.8/', sandbox))).toEqual({ code: 'VALIDATION_FAILED', message: 'Webhook URL must be an absolute http:// or https:// URL' });
  });

  it('accepts a public IP literal without any lookup', async () => {
    await expect(assertWebhookUrlAllowed('https://8.8.8.8/hook', strict)).resolves.toBeUndefined();
  });
});
