/**
 * Webhooks on a real database: endpoint registration through /api/v1 and the tRPC router
 * (validation messages, the secret shown once and encrypted at rest, audit events), owner
 * isolation on every service, payment events and their deliveries, and the HTTP sender's
 * delivery log and outbound safety against a real receiver on 127.0.0.1. Delivery through
 * Temporal (retries, give-up, redelivery) is in webhooks.temporal.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isAppError,
  webhookEventView,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_DELIVERY_NOT_FOUND_MESSAGE,
  WEBHOOK_ENDPOINT_NOT_FOUND_MESSAGE,
  WEBHOOK_EVENTS_MESSAGE,
  WEBHOOK_SECRET_MESSAGE,
  WEBHOOK_SECRET_OVERLAP_DEFAULT_SECONDS,
  WEBHOOK_SECRET_OVERLAP_MAX_SECONDS,
  WEBHOOK_SECRET_OVERLAP_MESSAGE,
  WEBHOOK_URL_MESSAGE,
  createWebhookEndpointInput,
  type ErrorCode,
  type IntentView,
  type WebhookEventType,
  type CreateWebhookEndpointBody,
  type WebhookDeliveryDetailView,
  type RotatedWebhookSecretView,
  type WebhookEndpointWithSecretView,
} from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { buildOpenApiDocument } from '../src/http/api-v1/openapi';
import { webhookRoutes } from '../src/http/api-v1/webhook-routes';
import { intentSelect, toIntentView } from '../src/services/intents/intent-view';
import { createOutboundPolicy, parseAllowlist, type Resolve } from '../src/services/outbound/outbound-policy';
import { createWebhookEndpoint } from '../src/services/webhooks/create-webhook-endpoint';
import { createWebhookSender } from '../src/services/webhooks/deliver-webhook';
import { deleteWebhookEndpoint } from '../src/services/webhooks/delete-webhook-endpoint';
import { emitPaymentEvent } from '../src/services/webhooks/emit-payment-event';
import { auditedWebhookUrl } from '../src/services/webhooks/record-webhook-change';
import { getWebhookDelivery } from '../src/services/webhooks/get-webhook-delivery';
import { getWebhookEndpoint } from '../src/services/webhooks/get-webhook-endpoint';
import { listWebhookDeliveries } from '../src/services/webhooks/list-webhook-deliveries';
import { listWebhookEndpoints } from '../src/services/webhooks/list-webhook-endpoints';
import { redeliverWebhook } from '../src/services/webhooks/redeliver-webhook';
import { rotateWebhookSecret } from '../src/services/webhooks/rotate-webhook-secret';
import { updateWebhookEndpoint } from '../src/services/webhooks/update-webhook-endpoint';
import { decryptWebhookSecret } from '../src/services/webhooks/webhook-secret';
import { webhooksRouter } from '../src/trpc/webhooks/router';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';
import { createAgent } from './support/wallet-fixtures';

let t: TestApp;
let prisma: PrismaClient;
let alice: SignedUpOwner;
let bob: SignedUpOwner;

const GENERATED_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  alice = await signUpTestOwner(t.app, prisma, 'Alice');
  bob = await signUpTestOwner(t.app, prisma, 'Bob');
});

afterAll(async () => {
  await t?.cleanup();
});

function call(owner: SignedUpOwner | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url: `/api/v1${url}`, payload, headers: owner?.headers ?? {} });
}

function create(owner: SignedUpOwner, body: CreateWebhookEndpointBody, deps = t.deps): Promise<WebhookEndpointWithSecretView> {
  return createWebhookEndpoint(deps, owner.userId, createWebhookEndpointInput.parse(body));
}

async function errorOf(promise: Promise<unknown>): Promise<{ code: ErrorCode; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the call to fail');
}

async function rawSecretColumns(endpointId: string): Promise<{ secretCiphertext: Uint8Array; secretIv: Uint8Array; secretTag: Uint8Array }> {
  const rows = await prisma.$queryRaw<{ secret_ciphertext: Uint8Array; secret_iv: Uint8Array; secret_tag: Uint8Array }[]>`
    SELECT secret_ciphertext, secret_iv, secret_tag FROM webhook_endpoints WHERE id = ${endpointId}::uuid`;
  const row = rows[0]!;
  return { secretCiphertext: row.secret_ciphertext, secretIv: row.secret_iv, secretTag: row.secret_tag };
}

async function auditOf(endpointId: string): Promise<{ action: string; actor: string; data: unknown }[]> {
  return prisma.auditEvent.findMany({ where: { subject: `webhook_endpoint:${endpointId}` }, orderBy: { seq: 'asc' }, select: { action: true, actor: true, data: true } });
}

describe('registering an endpoint', () => {
  it('subscribes to all four events, answers 201 and shows a generated Standard Webhooks secret once', async () => {
    const response = await call(alice, 'POST', '/webhooks', { url: 'https://hooks.example.com/purser', description: 'ops' });
    expect(response.statusCode).toBe(201);
    const created = response.json() as WebhookEndpointWithSecretView;
    expect(created.secret).toMatch(GENERATED_SECRET);
    expect(created.endpoint).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.com/purser',
      events: ['intent.created', 'intent.approved', 'settlement.completed', 'policy.violation'],
      description: 'ops',
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    // Never again: not in the list, not in the endpoint, not in a delivery view.
    const base64 = created.secret.slice('whsec_'.length);
    for (const url of ['/webhooks', `/webhooks/${created.endpoint.id}`]) {
      const read = await call(alice, 'GET', url);
      expect(read.statusCode).toBe(200);
      expect(read.body).not.toContain(base64);
      expect(read.body).not.toContain('secret');
    }
  });

  it('stores the secret only encrypted and bound to its endpoint', async () => {
    const created = await create(alice, { url: 'https://hooks.example.com/a' });
    const columns = await rawSecretColumns(created.endpoint.id);
    const plain = Buffer.from(created.secret);
    expect(Buffer.from(columns.secretCiphertext).includes(plain)).toBe(false);
    expect(Buffer.from(columns.secretCiphertext).includes(Buffer.from(created.secret.slice(6), 'base64'))).toBe(false);
    expect(decryptWebhookSecret(t.deps.masterKey, created.endpoint.id, columns)).toBe(created.secret);
    // The ciphertext on another endpoint's row does not decrypt.
    expect(() => decryptWebhookSecret(t.deps.masterKey, randomUUID(), columns)).toThrow();
  });

  it("keeps an owner-chosen secret, subscribes to the events named and audits the creation without the secret", async () => {
    const secret = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
    const created = await create(alice, { url: 'http://127.0.0.1:9/hook', events: ['policy.violation', 'intent.created'], secret, enabled: false });
    expect(created.secret).toBe(secret);
    expect(created.endpoint.events).toEqual(['intent.created', 'policy.violation']);
    expect(created.endpoint.enabled).toBe(false);
    expect(decryptWebhookSecret(t.deps.masterKey, created.endpoint.id, await rawSecretColumns(created.endpoint.id))).toBe(secret);

    const audit = await auditOf(created.endpoint.id);
    expect(audit).toEqual([
      {
        action: 'webhook_endpoint.created',
        actor: `owner:${alice.userId}`,
        data: { url: 'http://127.0.0.1:9/hook', events: ['intent.created', 'policy.violation'], enabled: false },
      },
    ]);
  });

  it('answers 400 with a message that names the problem', async () => {
    const cases: [object, string][] = [
      [{ url: 'ftp://example.com/x' }, WEBHOOK_URL_MESSAGE],
      [{}, WEBHOOK_URL_MESSAGE],
      [{ url: 'https://u:p@example.com/' }, 'Webhook URL must not contain a user name or password'],
      [{ url: `https://example.com/${'a'.repeat(2100)}` }, 'Webhook URL must be at most 2048 characters'],
      [{ url: 'https://example.com/', events: [] }, WEBHOOK_EVENTS_MESSAGE],
      [{ url: 'https://example.com/', events: ['payment.done'] }, WEBHOOK_EVENTS_MESSAGE],
      [{ url: 'https://example.com/', secret: 'hunter2' }, WEBHOOK_SECRET_MESSAGE],
    ];
    for (const [body, message] of cases) {
      const response = await call(alice, 'POST', '/webhooks', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message } });
    }
  });

  it('refuses loopback and private hosts outside the sandbox, by address or by name', async () => {
    const production = { ...t.deps, outbound: createOutboundPolicy() };
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost:8080/hook', 'http://[::1]/hook', 'http://169.254.169.254/', 'http://10.0.0.7/', 'http://100.64.1.1/']) {
      expect(await errorOf(create(alice, { url }, production)), url).toEqual({ code: 'URL_NOT_ALLOWED', message: expect.stringMatching(/^URL refused: .* is a (loopback|link-local|private network) (address|name)$/) });
    }
    // A public address literal needs no lookup and passes.
    const created = await create(alice, { url: 'https://8.8.8.8/hook' }, production);
    expect(await errorOf(updateWebhookEndpoint(production, alice.userId, { endpointId: created.endpoint.id, url: 'http://127.0.0.1/x' }))).toEqual({
      code: 'URL_NOT_ALLOWED',
      message: 'URL refused: 127.0.0.1 is a loopback address',
    });
  });

  it('refuses link-local and metadata hosts in the sandbox too, and names that resolve to them, with a 400', async () => {
    const resolve: Resolve = async (hostname) => (hostname === 'hooks.rebind.test' ? [{ address: '169.254.169.254', family: 4 }] : []);
    const sandbox = { ...t.deps, outbound: { ...t.deps.outbound, resolve } };
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/hook', 'http://[::ffff:169.254.169.254]/', 'http://metadata.google.internal/', 'https://hooks.rebind.test/hook']) {
      expect((await errorOf(create(alice, { url }, sandbox))).code, url).toBe('URL_NOT_ALLOWED');
    }
    const response = await call(alice, 'POST', '/webhooks', { url: 'http://169.254.169.254/latest/meta-data/' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'URL_NOT_ALLOWED', message: 'URL refused: 169.254.169.254 is a link-local address' } });
  });

  it('registers a private host the allowlist names, and refuses its neighbours', async () => {
    const production = { ...t.deps, outbound: createOutboundPolicy({ allowlist: parseAllowlist('10.0.0.7') }) };
    await expect(create(alice, { url: 'http://10.0.0.7/hook' }, production)).resolves.toMatchObject({ endpoint: { url: 'http://10.0.0.7/hook' } });
    expect((await errorOf(create(alice, { url: 'http://10.0.0.8/hook' }, production))).code).toBe('URL_NOT_ALLOWED');
  });

  it('allows at most 20 live endpoints per owner; deleting one makes room', async () => {
    const frank = await signUpTestOwner(t.app, prisma, 'Frank');
    const ids: string[] = [];
    for (let index = 0; index < MAX_WEBHOOK_ENDPOINTS; index++) ids.push((await create(frank, { url: `https://hooks.example.com/${index}` })).endpoint.id);
    expect(await errorOf(create(frank, { url: 'https://hooks.example.com/one-too-many' }))).toEqual({
      code: 'CONFLICT',
      message: 'You can have at most 20 webhook endpoints. Delete one first.',
    });
    await deleteWebhookEndpoint(t.deps, frank.userId, ids[0]!);
    await expect(create(frank, { url: 'https://hooks.example.com/room-again' })).resolves.toMatchObject({ endpoint: { enabled: true } });
  });

  it('requires an owner', async () => {
    const response = await call(undefined, 'GET', '/webhooks');
    expect(response.statusCode).toBe(401);
  });

  it('describes the webhook operations in the OpenAPI document under the Webhooks tag', async () => {
    // The document of these routes alone; the app serves it merged with every other route.
    const document = buildOpenApiDocument(webhookRoutes, { serverUrl: t.deps.publicUrl, version: 'test' }) as unknown as { paths: Record<string, Record<string, { tags?: string[] }>> };
    expect(Object.keys(document.paths).sort()).toEqual([
      '/webhook-deliveries/{deliveryId}',
      '/webhook-deliveries/{deliveryId}/redeliver',
      '/webhooks',
      '/webhooks/{endpointId}',
      '/webhooks/{endpointId}/deliveries',
      '/webhooks/{endpointId}/rotate-secret',
    ]);
    expect(document.paths['/webhooks']?.post?.tags).toEqual(['Webhooks']);
  });
});

describe('changing an endpoint', () => {
  it('changes only what is named and audits updates, disabling and enabling as separate actions', async () => {
    const { endpoint } = await create(alice, { url: 'https://hooks.example.com/change' });
    const patched = await call(alice, 'PATCH', `/webhooks/${endpoint.id}`, { events: ['settlement.completed'], enabled: false });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ id: endpoint.id, url: endpoint.url, events: ['settlement.completed'], enabled: false });

    await updateWebhookEndpoint(t.deps, alice.userId, { endpointId: endpoint.id, enabled: true, description: 'back on' });
    // No change, no audit event.
    await updateWebhookEndpoint(t.deps, alice.userId, { endpointId: endpoint.id, enabled: true });

    expect((await auditOf(endpoint.id)).map((event) => [event.action, event.data])).toEqual([
      ['webhook_endpoint.created', expect.any(Object)],
      ['webhook_endpoint.updated', { events: ['settlement.completed'] }],
      ['webhook_endpoint.disabled', { enabled: false }],
      ['webhook_endpoint.updated', { description: 'back on' }],
      ['webhook_endpoint.enabled', { enabled: true }],
    ]);
  });

  it('asks for at least one change and names a malformed id', async () => {
    const { endpoint } = await create(alice, { url: 'https://hooks.example.com/empty' });
    const empty = await call(alice, 'PATCH', `/webhooks/${endpoint.id}`, {});
    expect(empty.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'Give at least one of url, events, description or enabled to change' } });
    const malformed = await call(alice, 'GET', '/webhooks/not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'Webhook endpoint id must be a UUID' } });
  });

  it('rotates the secret: the new one is shown once, stored encrypted, and audited without it', async () => {
    const created = await create(alice, { url: 'https://hooks.example.com/rotate' });
    const response = await call(alice, 'POST', `/webhooks/${created.endpoint.id}/rotate-secret`);
    expect(response.statusCode).toBe(200);
    const rotated = response.json() as WebhookEndpointWithSecretView;
    expect(rotated.secret).toMatch(GENERATED_SECRET);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.endpoint.id).toBe(created.endpoint.id);
    expect(decryptWebhookSecret(t.deps.masterKey, created.endpoint.id, await rawSecretColumns(created.endpoint.id))).toBe(rotated.secret);

    const chosen = `whsec_${Buffer.alloc(40, 3).toString('base64')}`;
    expect((await rotateWebhookSecret(t.deps, alice.userId, { endpointId: created.endpoint.id, secret: chosen })).secret).toBe(chosen);

    const audit = await auditOf(created.endpoint.id);
    expect(audit.map((event) => event.action)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.secret_rotated', 'webhook_endpoint.secret_rotated']);
    const auditText = JSON.stringify(audit);
    for (const secret of [created.secret, rotated.secret, chosen]) expect(auditText).not.toContain(secret.slice(6, 30));
  });

  it('answers until when the replaced secret signs, takes an overlap within bounds, and refuses one outside them changing nothing', async () => {
    const created = await create(alice, { url: 'https://hooks.example.com/overlap' });
    const response = await call(alice, 'POST', `/webhooks/${created.endpoint.id}/rotate-secret`, { overlapSeconds: 600 });
    expect(response.statusCode, response.body).toBe(200);
    const rotated = response.json() as RotatedWebhookSecretView;
    expect(Date.parse(rotated.previousSecretExpiresAt!) - Date.now()).toBeGreaterThan(590_000);
    expect(Date.parse(rotated.previousSecretExpiresAt!) - Date.now()).toBeLessThanOrEqual(600_000);

    for (const overlapSeconds of [-1, 1.5, WEBHOOK_SECRET_OVERLAP_MAX_SECONDS + 1, '60']) {
      const refused = await call(alice, 'POST', `/webhooks/${created.endpoint.id}/rotate-secret`, { overlapSeconds });
      expect(refused.statusCode, String(overlapSeconds)).toBe(400);
      expect(refused.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: WEBHOOK_SECRET_OVERLAP_MESSAGE } });
    }
    expect(await errorOf(rotateWebhookSecret(t.deps, alice.userId, { endpointId: created.endpoint.id, overlapSeconds: -5 }))).toEqual({
      code: 'VALIDATION_FAILED',
      message: WEBHOOK_SECRET_OVERLAP_MESSAGE,
    });
    expect(decryptWebhookSecret(t.deps.masterKey, created.endpoint.id, await rawSecretColumns(created.endpoint.id))).toBe(rotated.secret);
    const audit = await auditOf(created.endpoint.id);
    expect(audit.map((event) => event.action)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.secret_rotated']);
    expect(audit[1]!.data).toEqual({ generated: true, previous_secret_expires_at: rotated.previousSecretExpiresAt });
  });

  it("puts an endpoint's URL in the audit chain without its query string or fragment; the endpoint keeps it whole", async () => {
    const url = 'https://hooks.example.com/purser/in?token=abc&team=7#frag';
    const created = await call(alice, 'POST', '/webhooks', { url });
    expect(created.statusCode, created.body).toBe(201);
    const { endpoint } = created.json() as WebhookEndpointWithSecretView;
    expect(endpoint.url).toBe(url);
    expect((await getWebhookEndpoint(t.deps, alice.userId, endpoint.id)).url).toBe(url);

    await updateWebhookEndpoint(t.deps, alice.userId, { endpointId: endpoint.id, url: 'https://hooks.example.com/purser/v2?token=def' });
    await deleteWebhookEndpoint(t.deps, alice.userId, endpoint.id);
    const audit = await auditOf(endpoint.id);
    expect(audit.map((event) => [event.action, (event.data as { url?: string }).url])).toEqual([
      ['webhook_endpoint.created', 'https://hooks.example.com/purser/in'],
      ['webhook_endpoint.updated', 'https://hooks.example.com/purser/v2'],
      ['webhook_endpoint.deleted', 'https://hooks.example.com/purser/v2'],
    ]);
    const auditText = JSON.stringify(audit);
    for (const secret of ['token', 'abc', 'def', 'frag']) expect(auditText).not.toContain(secret);
    // Credentials never get this far (the URL is refused), and would not reach the chain either.
    expect(auditedWebhookUrl('https://user:pass@hooks.example.com/x?token=abc')).toBe('https://hooks.example.com/x');
  });

  it('deletes softly: hidden and disabled, the row kept, audited, and a second delete is 404', async () => {
    const { endpoint } = await create(alice, { url: 'https://hooks.example.com/delete' });
    const response = await call(alice, 'DELETE', `/webhooks/${endpoint.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: endpoint.id, deleted: true, deletedAt: expect.any(String) });

    const row = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id }, select: { enabled: true, deletedAt: true } });
    expect(row.enabled).toBe(false);
    expect(row.deletedAt).not.toBeNull();
    expect((await listWebhookEndpoints(t.deps, alice.userId)).endpoints.map((e) => e.id)).not.toContain(endpoint.id);
    expect((await call(alice, 'GET', `/webhooks/${endpoint.id}`)).statusCode).toBe(404);
    expect((await call(alice, 'DELETE', `/webhooks/${endpoint.id}`)).statusCode).toBe(404);
    expect((await auditOf(endpoint.id)).map((event) => event.action)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.deleted']);
  });
});

describe('the tRPC router', () => {
  function callerFor(owner: SignedUpOwner) {
    return webhooksRouter.createCaller({ ...t.deps, requestId: 'test', owner: { userId: owner.userId, via: 'session' } });
  }

  it('creates, lists and reads endpoints; the secret is only in the create answer', async () => {
    const caller = callerFor(alice);
    const created = await caller.create({ url: 'https://hooks.example.com/trpc', events: ['intent.approved'] });
    expect(created.secret).toMatch(GENERATED_SECRET);
    const listed = await caller.list();
    expect(listed.endpoints.find((e) => e.id === created.endpoint.id)).toMatchObject({ events: ['intent.approved'] });
    expect(JSON.stringify(listed)).not.toContain(created.secret.slice(6));
    expect(JSON.stringify(await caller.get({ endpointId: created.endpoint.id }))).not.toContain(created.secret.slice(6));
  });

  it('answers validation failures with the contract message and foreign ids with NOT_FOUND', async () => {
    await expect(callerFor(alice).create({ url: 'gopher://x' })).rejects.toThrow(WEBHOOK_URL_MESSAGE);
    const { endpoint } = await create(alice, { url: 'https://hooks.example.com/trpc-foreign' });
    await expect(callerFor(bob).get({ endpointId: endpoint.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: WEBHOOK_ENDPOINT_NOT_FOUND_MESSAGE });
  });
});

// ---------------------------------------------------------------- payment events

async function createIntent(ownerId: string): Promise<IntentView> {
  const { agentId } = await createAgent(prisma, ownerId);
  const row = await prisma.paymentIntent.create({
    data: {
      ownerId,
      agentId,
      createdBy: 'agent',
      amount: 1_500_000n,
      currency: 'USDC',
      purpose: 'webhook test',
      workflowId: `payment-${randomUUID()}`,
      idempotencyKey: randomUUID(),
      requestHash: '0'.repeat(64),
    },
    select: intentSelect,
  });
  return toIntentView(row);
}

function emit(intent: IntentView, type: WebhookEventType) {
  return prisma.$transaction((tx) => emitPaymentEvent(tx, { ownerId: intent.ownerId, intentId: intent.id, type, intent }));
}

describe('payment events', () => {
  let carol: SignedUpOwner;
  let all: string;
  let settlementsOnly: string;
  let disabled: string;
  let deleted: string;
  let bobsEndpoint: string;

  beforeAll(async () => {
    carol = await signUpTestOwner(t.app, prisma, 'Carol');
    all = (await create(carol, { url: 'https://hooks.example.com/all' })).endpoint.id;
    settlementsOnly = (await create(carol, { url: 'https://hooks.example.com/settled', events: ['settlement.completed'] })).endpoint.id;
    disabled = (await create(carol, { url: 'https://hooks.example.com/off', enabled: false })).endpoint.id;
    deleted = (await create(carol, { url: 'https://hooks.example.com/gone' })).endpoint.id;
    await deleteWebhookEndpoint(t.deps, carol.userId, deleted);
    bobsEndpoint = (await create(bob, { url: 'https://hooks.example.com/bob' })).endpoint.id;
  });

  it("deliver to the owner's enabled, live endpoints subscribed to the type, with the event as the body", async () => {
    const intent = await createIntent(carol.userId);
    const created = await emit(intent, 'intent.created');
    const settled = await emit(intent, 'settlement.completed');

    const endpointsOf = async (deliveryIds: string[]) =>
      (await prisma.webhookDelivery.findMany({ where: { id: { in: deliveryIds } }, select: { endpointId: true } })).map((d) => d.endpointId).sort();
    expect(await endpointsOf(created.deliveryIds)).toEqual([all]);
    expect(await endpointsOf(settled.deliveryIds)).toEqual([all, settlementsOnly].sort());
    for (const endpointId of [disabled, deleted, bobsEndpoint]) {
      expect(await prisma.webhookDelivery.count({ where: { endpointId } })).toBe(0);
    }

    const delivery = await getWebhookDelivery(t.deps, carol.userId, created.deliveryIds[0]!);
    expect(delivery).toMatchObject({ eventId: created.eventId, eventType: 'intent.created', status: 'pending', attempts: 0, attemptLog: [] });
    const event = webhookEventView.parse(delivery.payload);
    expect(event).toEqual({ id: created.eventId, type: 'intent.created', createdAt: expect.any(String), data: { intent } });
    const stored = await prisma.paymentEvent.findUniqueOrThrow({ where: { id: created.eventId }, select: { payload: true, type: true } });
    expect(stored).toEqual({ type: 'intent.created', payload: delivery.payload });
  });

  it('are recorded once per intent and type: emitting again reuses the event and its deliveries', async () => {
    const intent = await createIntent(carol.userId);
    const first = await emit(intent, 'intent.approved');
    // An endpoint added later does not get an event that already happened.
    const later = (await create(carol, { url: 'https://hooks.example.com/later' })).endpoint.id;
    const again = await emit(intent, 'intent.approved');
    const concurrently = await Promise.all([emit(intent, 'intent.approved'), emit(intent, 'intent.approved')]);

    for (const result of [again, ...concurrently]) expect(result).toEqual(first);
    expect(await prisma.paymentEvent.count({ where: { paymentIntentId: intent.id } })).toBe(1);
    expect(await prisma.webhookDelivery.count({ where: { eventId: first.eventId } })).toBe(1);
    expect(await prisma.webhookDelivery.count({ where: { endpointId: later } })).toBe(0);
    await deleteWebhookEndpoint(t.deps, carol.userId, later);
  });

  it('record the event even when no endpoint listens', async () => {
    const dave = await signUpTestOwner(t.app, prisma, 'Dave');
    const intent = await createIntent(dave.userId);
    const result = await emit(intent, 'policy.violation');
    expect(result.deliveryIds).toEqual([]);
    expect(await prisma.paymentEvent.count({ where: { id: result.eventId } })).toBe(1);
  });

  it('list deliveries newest first, filtered by endpoint and status, a page at a time', async () => {
    const intents = [await createIntent(carol.userId), await createIntent(carol.userId), await createIntent(carol.userId)];
    const ids: string[] = [];
    for (const intent of intents) ids.push(...(await emit(intent, 'intent.created')).deliveryIds);

    const firstPage = await listWebhookDeliveries(t.deps, carol.userId, { endpointId: all, status: 'pending', limit: 2 });
    expect(firstPage.deliveries.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    expect(firstPage.nextCursor).toBe(ids[1]);
    const secondPage = await listWebhookDeliveries(t.deps, carol.userId, { endpointId: all, status: 'pending', limit: 2, cursor: firstPage.nextCursor! });
    expect(secondPage.deliveries[0]?.id).toBe(ids[0]);

    const rest = await call(carol, 'GET', `/webhooks/${all}/deliveries?limit=1`);
    expect(rest.statusCode).toBe(200);
    expect((rest.json() as { deliveries: { id: string }[] }).deliveries.map((d) => d.id)).toEqual([ids[2]]);
    expect((await listWebhookDeliveries(t.deps, carol.userId, { endpointId: all, status: 'succeeded', limit: 50 })).deliveries).toEqual([]);
    // Bob's log has none of Carol's deliveries.
    expect((await listWebhookDeliveries(t.deps, bob.userId, { limit: 100 })).deliveries.filter((d) => ids.includes(d.id))).toEqual([]);
  });
});

describe("another owner's endpoints and deliveries", () => {
  it('are 404 on every service and route, and stay unchanged', async () => {
    const created = await create(alice, { url: 'https://hooks.example.com/private' });
    const endpointId = created.endpoint.id;
    const intent = await createIntent(alice.userId);
    const { deliveryIds } = await emit(intent, 'intent.created');
    const deliveryId = (await prisma.webhookDelivery.findFirstOrThrow({ where: { id: { in: deliveryIds }, endpointId }, select: { id: true } })).id;

    const notEndpoint = { code: 'NOT_FOUND', message: WEBHOOK_ENDPOINT_NOT_FOUND_MESSAGE };
    const notDelivery = { code: 'NOT_FOUND', message: WEBHOOK_DELIVERY_NOT_FOUND_MESSAGE };
    expect(await errorOf(getWebhookEndpoint(t.deps, bob.userId, endpointId))).toEqual(notEndpoint);
    expect(await errorOf(updateWebhookEndpoint(t.deps, bob.userId, { endpointId, enabled: false }))).toEqual(notEndpoint);
    expect(await errorOf(rotateWebhookSecret(t.deps, bob.userId, { endpointId }))).toEqual(notEndpoint);
    expect(await errorOf(deleteWebhookEndpoint(t.deps, bob.userId, endpointId))).toEqual(notEndpoint);
    expect(await errorOf(listWebhookDeliveries(t.deps, bob.userId, { endpointId, limit: 10 }))).toEqual(notEndpoint);
    expect(await errorOf(getWebhookDelivery(t.deps, bob.userId, deliveryId))).toEqual(notDelivery);
    // The ownership check comes before Temporal is touched (this suite has none).
    expect(await errorOf(redeliverWebhook(t.deps, bob.userId, deliveryId))).toEqual(notDelivery);
    expect(await errorOf(getWebhookDelivery(t.deps, alice.userId, 'nope'))).toEqual(notDelivery);
    expect(await errorOf(getWebhookEndpoint(t.deps, alice.userId, randomUUID()))).toEqual(notEndpoint);

    for (const [method, url] of [
      ['GET', `/webhooks/${endpointId}`],
      ['PATCH', `/webhooks/${endpointId}`],
      ['DELETE', `/webhooks/${endpointId}`],
      ['POST', `/webhooks/${endpointId}/rotate-secret`],
      ['GET', `/webhooks/${endpointId}/deliveries`],
      ['GET', `/webhook-deliveries/${deliveryId}`],
      ['POST', `/webhook-deliveries/${deliveryId}/redeliver`],
    ] as const) {
      const response = await call(bob, method, url, method === 'PATCH' ? { enabled: false } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }

    expect(await getWebhookEndpoint(t.deps, alice.userId, endpointId)).toEqual(created.endpoint);
    expect(decryptWebhookSecret(t.deps.masterKey, endpointId, await rawSecretColumns(endpointId))).toBe(created.secret);
    expect((await auditOf(endpointId)).map((event) => event.action)).toEqual(['webhook_endpoint.created']);
  });

  it('cannot be redelivered by their owner once the endpoint is disabled or deleted', async () => {
    const { endpoint } = await create(alice, { url: 'https://hooks.example.com/redeliver-off' });
    const { deliveryIds } = await emit(await createIntent(alice.userId), 'intent.created');
    const deliveryId = (await prisma.webhookDelivery.findFirstOrThrow({ where: { id: { in: deliveryIds }, endpointId: endpoint.id }, select: { id: true } })).id;
    await updateWebhookEndpoint(t.deps, alice.userId, { endpointId: endpoint.id, enabled: false });
    expect((await errorOf(redeliverWebhook(t.deps, alice.userId, deliveryId))).code).toBe('CONFLICT');
    await deleteWebhookEndpoint(t.deps, alice.userId, endpoint.id);
    expect((await errorOf(redeliverWebhook(t.deps, alice.userId, deliveryId))).code).toBe('CONFLICT');
    // The deleted endpoint's log still reads.
    expect((await getWebhookDelivery(t.deps, alice.userId, deliveryId)).id).toBe(deliveryId);
  });
});

// ---------------------------------------------------------------- the HTTP sender

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  url: string;
}

/** A receiver on 127.0.0.1 answering with `respond`; records what it got. */
async function startReceiver(respond: (request: IncomingMessage, response: ServerResponse, count: number) => void): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), url: request.url ?? '' });
      respond(request, response, received.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the webhook sender', () => {
  let erin: SignedUpOwner;

  beforeAll(async () => {
    erin = await signUpTestOwner(t.app, prisma, 'Erin');
  });

  /** A fresh endpoint of Erin's at `url`, and one pending delivery to it. */
  async function deliveryTo(url: string): Promise<{ deliveryId: string; secret: string; endpointId: string; eventId: string }> {
    const existing = await listWebhookEndpoints(t.deps, erin.userId);
    for (const endpoint of existing.endpoints) await deleteWebhookEndpoint(t.deps, erin.userId, endpoint.id);
    const created = await create(erin, { url });
    const { eventId, deliveryIds } = await emit(await createIntent(erin.userId), 'intent.created');
    return { deliveryId: deliveryIds[0]!, secret: created.secret, endpointId: created.endpoint.id, eventId };
  }

  it('posts the stored event signed per Standard Webhooks and logs the attempt', async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(204).end());
    try {
      const { deliveryId, secret, eventId } = await deliveryTo(`${receiver.url}/hooks?x=1`);
      const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: t.deps.outbound });
      const result = await sender.attemptDelivery(deliveryId, { retryInMs: 1000 });
      expect(result).toEqual({ delivered: true, stop: true, statusCode: 204, attempt: 1 });

      const [request] = receiver.received;
      expect(request?.url).toBe('/hooks?x=1');
      expect(request?.headers['content-type']).toBe('application/json');
      expect(request?.headers['user-agent']).toMatch(/^Purser-Webhooks\//);
      expect(request?.headers['webhook-id']).toBe(eventId);
      const verified = new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>);
      expect(verified).toMatchObject({ id: eventId, type: 'intent.created' });

      const detail = await getWebhookDelivery(t.deps, erin.userId, deliveryId);
      expect(detail).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 204, lastError: null, nextAttemptAt: null, deliveredAt: expect.any(String) });
      expect(detail.attemptLog).toEqual([{ attempt: 1, statusCode: 204, latencyMs: expect.any(Number), error: null, succeeded: true, at: expect.any(String) }]);

      // Delivered is final for this and any racing run: nothing is sent again.
      expect(await sender.attemptDelivery(deliveryId)).toMatchObject({ delivered: true, stop: true });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('logs a non-2xx answer with its status, a capped excerpt of the body and when the next attempt comes', async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(500).end(`boom ${'x'.repeat(100_000)}`));
    try {
      const { deliveryId } = await deliveryTo(`${receiver.url}/`);
      const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: t.deps.outbound });
      const before = Date.now();
      expect(await sender.attemptDelivery(deliveryId, { retryInMs: 60_000 })).toEqual({ delivered: false, stop: false, statusCode: 500, attempt: 1 });
      expect(await sender.attemptDelivery(deliveryId, { retryInMs: null })).toMatchObject({ attempt: 2 });

      const detail: WebhookDeliveryDetailView = await getWebhookDelivery(t.deps, erin.userId, deliveryId);
      expect(detail.status).toBe('pending');
      expect(detail.nextAttemptAt).toBeNull();
      expect(detail.attemptLog.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([
        [1, 500, false],
        [2, 500, false],
      ]);
      expect(detail.attemptLog[0]?.error).toMatch(/^HTTP 500: boom x+$/);
      expect(detail.attemptLog[0]!.error!.length).toBeLessThanOrEqual(1100);
      expect(Date.parse(detail.attemptLog[0]!.at)).toBeGreaterThanOrEqual(before - 1000);

      await sender.giveUpDelivery(deliveryId);
      expect((await getWebhookDelivery(t.deps, erin.userId, deliveryId)).status).toBe('failed');
    } finally {
      await receiver.close();
    }
  });

  it('does not follow redirects, not even to the metadata address', async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
    try {
      const { deliveryId } = await deliveryTo(`${receiver.url}/start`);
      const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: t.deps.outbound });
      expect(await sender.attemptDelivery(deliveryId)).toMatchObject({ delivered: false, stop: false, statusCode: 302 });
      expect(receiver.received.map((r) => r.url)).toEqual(['/start']);
    } finally {
      await receiver.close();
    }
  });

  it('gives up an attempt that takes longer than its time limit', async () => {
    const receiver = await startReceiver(() => {
      // never answers
    });
    try {
      const { deliveryId } = await deliveryTo(`${receiver.url}/slow`);
      const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: t.deps.outbound, fetchTimeoutMs: 300 });
      expect(await sender.attemptDelivery(deliveryId)).toMatchObject({ delivered: false, stop: false, statusCode: null, attempt: 1 });
      const [attempt] = (await getWebhookDelivery(t.deps, erin.userId, deliveryId)).attemptLog;
      expect(attempt?.error).toBe('The webhook endpoint 127.0.0.1 did not answer within the 300 ms limit');
      expect(attempt?.latencyMs).toBeGreaterThanOrEqual(250);
    } finally {
      await receiver.close();
    }
  });

  it('refuses loopback at delivery time outside the sandbox, by address and by name (DNS rebinding)', async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(200).end());
    try {
      const port = new URL(receiver.url).port;
      const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: createOutboundPolicy() });
      for (const url of [`${receiver.url}/by-address`, `http://localhost:${port}/by-name`]) {
        // Registered while private URLs were allowed; the name could as well have changed since.
        const { deliveryId } = await deliveryTo(url);
        expect(await sender.attemptDelivery(deliveryId)).toMatchObject({ delivered: false, stop: false, statusCode: null, attempt: 1 });
        const [attempt] = (await getWebhookDelivery(t.deps, erin.userId, deliveryId)).attemptLog;
        expect(attempt?.error, url).toMatch(/^URL refused: /);
      }
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('refuses at delivery time a name that now resolves to the metadata address, and logs why', async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(200).end());
    try {
      const port = new URL(receiver.url).port;
      // Registered when the name did not resolve yet; it answers now with the metadata address.
      const { deliveryId } = await deliveryTo(`http://hooks.rebind.test:${port}/hook`);
      let answer = '169.254.169.254';
      const resolve: Resolve = async () => [{ address: answer, family: 4 }];
      const outbound = { ...t.deps.outbound, resolve };
      const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound });
      expect(await sender.attemptDelivery(deliveryId, { retryInMs: 1000 })).toMatchObject({ delivered: false, stop: false, statusCode: null, attempt: 1 });
      const detail = await getWebhookDelivery(t.deps, erin.userId, deliveryId);
      expect(detail).toMatchObject({ status: 'pending', lastError: 'URL refused: hooks.rebind.test resolves to 169.254.169.254, a link-local address' });
      expect(detail.attemptLog).toMatchObject([{ attempt: 1, statusCode: null, succeeded: false, error: 'URL refused: hooks.rebind.test resolves to 169.254.169.254, a link-local address' }]);
      expect(receiver.received).toEqual([]);

      // The same name answering with loopback again is delivered: the socket goes where the check looked.
      answer = '127.0.0.1';
      expect(await sender.attemptDelivery(deliveryId)).toMatchObject({ delivered: true, statusCode: 200, attempt: 2 });
      expect(receiver.received.map((request) => request.headers.host)).toEqual([`hooks.rebind.test:${port}`]);
    } finally {
      await receiver.close();
    }
  });

  it("refuses a loopback receiver on a port of the product's own services, even in the sandbox", async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(200).end());
    try {
      const port = Number(new URL(receiver.url).port);
      const { deliveryId } = await deliveryTo(`${receiver.url}/temporal-ui`);
      const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: { ...t.deps.outbound, deniedLoopbackPorts: [port] } });
      expect(await sender.attemptDelivery(deliveryId)).toMatchObject({ delivered: false, statusCode: null });
      const [attempt] = (await getWebhookDelivery(t.deps, erin.userId, deliveryId)).attemptLog;
      expect(attempt?.error).toBe(`URL refused: 127.0.0.1 is a loopback address on port ${port}, which belongs to this deployment's own services`);
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('stops without sending when the endpoint was disabled or deleted', async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(200).end());
    try {
      const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: t.deps.outbound });
      const first = await deliveryTo(`${receiver.url}/off`);
      await updateWebhookEndpoint(t.deps, erin.userId, { endpointId: first.endpointId, enabled: false });
      expect(await sender.attemptDelivery(first.deliveryId)).toEqual({ delivered: false, stop: true, statusCode: null, attempt: 0 });
      expect(await getWebhookDelivery(t.deps, erin.userId, first.deliveryId)).toMatchObject({ status: 'failed', lastError: 'Endpoint disabled', attempts: 0, attemptLog: [] });

      const second = await deliveryTo(`${receiver.url}/gone`);
      await deleteWebhookEndpoint(t.deps, erin.userId, second.endpointId);
      expect(await sender.attemptDelivery(second.deliveryId)).toMatchObject({ delivered: false, stop: true });
      expect((await getWebhookDelivery(t.deps, erin.userId, second.deliveryId)).lastError).toBe('Endpoint deleted');
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('signs with the new and the replaced secret after a rotation, until the expiry the rotation stored; then with the new one alone, the old one erased', async () => {
    // 500: the delivery stays pending, so each attempt is sent and seen.
    const receiver = await startReceiver((_request, response) => response.writeHead(500).end());
    try {
      const { deliveryId, secret: original, endpointId } = await deliveryTo(`${receiver.url}/rotating`);
      const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: t.deps.outbound });
      const before = Date.now();
      const rotated = await rotateWebhookSecret(t.deps, erin.userId, { endpointId });
      const expiresAt = Date.parse(rotated.previousSecretExpiresAt!);
      expect(expiresAt - before).toBeGreaterThanOrEqual(WEBHOOK_SECRET_OVERLAP_DEFAULT_SECONDS * 1000);
      expect(expiresAt - Date.now()).toBeLessThanOrEqual(WEBHOOK_SECRET_OVERLAP_DEFAULT_SECONDS * 1000);
      // The replaced secret is kept encrypted, like the current one.
      const kept = await previousSecretColumns(endpointId);
      expect(kept.expiresAt?.toISOString()).toBe(rotated.previousSecretExpiresAt);
      expect(Buffer.from(kept.ciphertext!).includes(Buffer.from(original.slice(6), 'base64'))).toBe(false);
      expect(decryptWebhookSecret(t.deps.masterKey, endpointId, { secretCiphertext: kept.ciphertext!, secretIv: kept.iv!, secretTag: kept.tag! })).toBe(original);

      await sender.attemptDelivery(deliveryId, { retryInMs: null });
      const during = receiver.received.at(-1)!;
      // Standard Webhooks' list: space-delimited v1 signatures, either of which verifies.
      expect(String(during.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/=]+ v1,[A-Za-z0-9+/=]+$/);
      for (const secret of [rotated.secret, original]) expect(() => new Webhook(secret).verify(during.body, during.headers as Record<string, string>)).not.toThrow();

      // The overlap ends when the stored expiry passes.
      await prisma.webhookEndpoint.update({ where: { id: endpointId }, data: { previousSecretExpiresAt: new Date(Date.now() - 1) }, select: { id: true } });
      await sender.attemptDelivery(deliveryId, { retryInMs: null });
      const after = receiver.received.at(-1)!;
      expect(String(after.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(() => new Webhook(rotated.secret).verify(after.body, after.headers as Record<string, string>)).not.toThrow();
      expect(() => new Webhook(original).verify(after.body, after.headers as Record<string, string>)).toThrow();
      expect(await previousSecretColumns(endpointId)).toEqual({ ciphertext: null, iv: null, tag: null, expiresAt: null });
    } finally {
      await receiver.close();
    }
  });

  it('keeps only the secret the last rotation replaced, and none when that rotation chose no overlap', async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(500).end());
    try {
      const { deliveryId, secret: first, endpointId } = await deliveryTo(`${receiver.url}/twice`);
      const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: t.deps.outbound });
      const second = await rotateWebhookSecret(t.deps, erin.userId, { endpointId, overlapSeconds: 3600 });
      const third = await rotateWebhookSecret(t.deps, erin.userId, { endpointId });
      await sender.attemptDelivery(deliveryId, { retryInMs: null });
      const twice = receiver.received.at(-1)!;
      const verifies = (secret: string, request: Received) => {
        try {
          new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
          return true;
        } catch {
          return false;
        }
      };
      expect([first, second.secret, third.secret].map((secret) => verifies(secret, twice))).toEqual([false, true, true]);

      // A leaked secret: rotated with no overlap, it stops at once.
      const fourth = await rotateWebhookSecret(t.deps, erin.userId, { endpointId, overlapSeconds: 0 });
      expect(fourth.previousSecretExpiresAt).toBeNull();
      expect(await previousSecretColumns(endpointId)).toEqual({ ciphertext: null, iv: null, tag: null, expiresAt: null });
      await sender.attemptDelivery(deliveryId, { retryInMs: null });
      const leaked = receiver.received.at(-1)!;
      expect([third.secret, fourth.secret].map((secret) => verifies(secret, leaked))).toEqual([false, true]);
    } finally {
      await receiver.close();
    }
  });
});

/** The replaced secret's columns as stored (the client omits them unless named). */
async function previousSecretColumns(endpointId: string) {
  const row = await prisma.webhookEndpoint.findUniqueOrThrow({
    where: { id: endpointId },
    select: { previousSecretCiphertext: true, previousSecretIv: true, previousSecretTag: true, previousSecretExpiresAt: true },
  });
  return { ciphertext: row.previousSecretCiphertext, iv: row.previousSecretIv, tag: row.previousSecretTag, expiresAt: row.previousSecretExpiresAt };
}
