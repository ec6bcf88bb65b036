import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from './intents';
import {
  createWebhookEndpointInput,
  isWebhookSecret,
  listWebhookDeliveriesInput,
  updateWebhookEndpointInput,
  WEBHOOK_EVENTS_MESSAGE,
  WEBHOOK_SECRET_MESSAGE,
  WEBHOOK_URL_MESSAGE,
  webhookEndpointView,
  webhookEndpointWithSecretView,
} from './webhooks';

const ENDPOINT_ID = '0195f3c2-7d1e-7a4b-9c2d-1e2f3a4b5c6d';

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined {
  return result.error?.issues[0]?.message;
}

/** `whsec_` + base64 of `bytes` bytes (Buffer is fine in a test; core itself stays pure). */
function secretOf(bytes: number): string {
  return `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;
}

describe('createWebhookEndpointInput', () => {
  it('subscribes to all four events, enables the endpoint and leaves the secret to the server by default', () => {
    expect(createWebhookEndpointInput.parse({ url: ' https://hooks.example.com/purser ' })).toEqual({
      url: 'https://hooks.example.com/purser',
      events: [...WEBHOOK_EVENT_TYPES],
      description: '',
      enabled: true,
    });
  });

  it('keeps each event once, in the canonical order', () => {
    const parsed = createWebhookEndpointInput.parse({
      url: 'http://127.0.0.1:8080/hook',
      events: ['settlement.completed', 'intent.created', 'settlement.completed'],
    });
    expect(parsed.events).toEqual(['intent.created', 'settlement.completed']);
  });

  it('subscribes to budget.threshold only when asked, after the payment events', () => {
    const parsed = createWebhookEndpointInput.parse({ url: 'https://a.example', events: ['budget.threshold', 'intent.created'] });
    expect(parsed.events).toEqual(['intent.created', 'budget.threshold']);
    expect(createWebhookEndpointInput.parse({ url: 'https://a.example' }).events).not.toContain('budget.threshold');
  });

  it('refuses an empty event list and unknown events with the list of valid events', () => {
    expect(firstMessage(createWebhookEndpointInput.safeParse({ url: 'https://a.example', events: [] }))).toBe(WEBHOOK_EVENTS_MESSAGE);
    expect(firstMessage(createWebhookEndpointInput.safeParse({ url: 'https://a.example', events: ['intent.paid'] }))).toBe(WEBHOOK_EVENTS_MESSAGE);
    expect(WEBHOOK_EVENTS_MESSAGE).toBe(
      'Webhook events must be one or more of intent.created, intent.approved, settlement.completed, policy.violation, budget.threshold, connection.created, connection.revoked, budget.requested, budget.granted, budget.rejected, budget.closed',
    );
  });

  it('accepts only absolute http and https URLs', () => {
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'example.com/hook', '', '   ', 42]) {
      expect(firstMessage(createWebhookEndpointInput.safeParse({ url }))).toBe(WEBHOOK_URL_MESSAGE);
    }
  });

  it('refuses URLs with a user name or password in them', () => {
    expect(firstMessage(createWebhookEndpointInput.safeParse({ url: 'https://user:pass@example.com/hook' }))).toBe(
      'Webhook URL must not contain a user name or password',
    );
    expect(createWebhookEndpointInput.safeParse({ url: 'https://user@example.com/hook' }).success).toBe(false);
  });

  it('refuses URLs longer than 2048 characters', () => {
    const url = `https://example.com/${'a'.repeat(2048)}`;
    expect(firstMessage(createWebhookEndpointInput.safeParse({ url }))).toBe('Webhook URL must be at most 2048 characters');
  });

  it('accepts Standard Webhooks secrets of 24 to 64 bytes and refuses anything else', () => {
    expect(createWebhookEndpointInput.parse({ url: 'https://a.example', secret: secretOf(24) }).secret).toBe(secretOf(24));
    expect(createWebhookEndpointInput.parse({ url: 'https://a.example', secret: secretOf(64) }).secret).toBe(secretOf(64));
    for (const secret of [secretOf(23), secretOf(65), 'whsec_', 'whsec_not base64!', secretOf(32).replace('whsec_', ''), 'whsec_QUJD', '']) {
      expect(firstMessage(createWebhookEndpointInput.safeParse({ url: 'https://a.example', secret }))).toBe(WEBHOOK_SECRET_MESSAGE);
    }
  });

  it('refuses descriptions over 500 characters', () => {
    expect(firstMessage(createWebhookEndpointInput.safeParse({ url: 'https://a.example', description: 'x'.repeat(501) }))).toBe(
      'Description must be at most 500 characters',
    );
  });
});

describe('isWebhookSecret', () => {
  it('counts decoded bytes, padding included', () => {
    expect(isWebhookSecret(secretOf(25))).toBe(true); // one '=' of padding
    expect(isWebhookSecret(secretOf(26))).toBe(true); // '==' of padding
    expect(isWebhookSecret(`${secretOf(30)}=`)).toBe(false);
  });
});

describe('updateWebhookEndpointInput', () => {
  it('asks for at least one change', () => {
    expect(firstMessage(updateWebhookEndpointInput.safeParse({ endpointId: ENDPOINT_ID }))).toBe(
      'Give at least one of url, events, description or enabled to change',
    );
  });

  it('changes only what it names and allows clearing the description', () => {
    expect(updateWebhookEndpointInput.parse({ endpointId: ENDPOINT_ID, enabled: false, description: '' })).toEqual({
      endpointId: ENDPOINT_ID,
      enabled: false,
      description: '',
    });
  });

  it('names a malformed endpoint id', () => {
    expect(firstMessage(updateWebhookEndpointInput.safeParse({ endpointId: 'nope', enabled: true }))).toBe('Webhook endpoint id must be a UUID');
  });
});

describe('listWebhookDeliveriesInput', () => {
  it('defaults the limit to 50 and coerces query-string numbers', () => {
    expect(listWebhookDeliveriesInput.parse({})).toEqual({ limit: 50 });
    expect(listWebhookDeliveriesInput.parse({ limit: '5', status: 'failed' })).toEqual({ limit: 5, status: 'failed' });
  });

  it('refuses limits outside 1 to 100 and unknown statuses', () => {
    expect(firstMessage(listWebhookDeliveriesInput.safeParse({ limit: 0 }))).toBe('limit must be a whole number from 1 to 100');
    expect(firstMessage(listWebhookDeliveriesInput.safeParse({ limit: 101 }))).toBe('limit must be a whole number from 1 to 100');
    expect(firstMessage(listWebhookDeliveriesInput.safeParse({ status: 'lost' }))).toBe('status must be one of pending, succeeded, failed');
  });
});

describe('endpoint views', () => {
  const endpoint = {
    id: ENDPOINT_ID,
    url: 'https://a.example/',
    events: ['intent.created'],
    description: '',
    enabled: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };

  it('drop a secret that a careless caller leaves on the endpoint', () => {
    expect(webhookEndpointView.parse({ ...endpoint, secret: secretOf(32) })).not.toHaveProperty('secret');
  });

  it('carry the secret only in the create and rotate answer', () => {
    expect(webhookEndpointWithSecretView.parse({ endpoint, secret: secretOf(32) }).secret).toBe(secretOf(32));
  });
});
