/**
 * Traces end to end: with tracing on (an in-memory exporter in place of OTLP), an agent's ledger
 * payment over HTTP is one trace, from the request's server span through the workflow start,
 * the workflow run and its activities to the database queries and the webhook the payment sends,
 * each span linked to its parent. What goes out to parties others chose (webhook receivers,
 * sellers) carries the trace's traceparent and never the caller's W3C baggage.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENT_API_PREFIX } from '@purser/core';
import { paymentWorkflowId, WORKFLOW_NAMES } from '@purser/workflows';
import { startTracing, type Tracing } from '../src/tracing/tracing';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { agentCall, createFundedAgent, ownerCall } from './support/x402-fixtures';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let env: TemporalTestEnv;
let owner: SignedUpOwner;
let appUrl: string;
let receiver: Server;
/** Each request the receiver got (webhooks, and the seller's calls below /seller). */
const received: Array<{ path: string; traceparent: unknown; baggage: unknown }> = [];
/** What a caller puts in its W3C baggage: nothing of it may leave. */
const BAGGAGE = 'user=secret,tenant=acme';

beforeAll(async () => {
  tracing = startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)], role: 'test' });
  env = await startTemporalTestEnv({ tracing, agentRateLimitPerMinute: 10_000 });
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  receiver = createServer((request, response) => {
    received.push({ path: request.url ?? '', traceparent: request.headers.traceparent, baggage: request.headers.baggage });
    request.resume().on('end', () => response.end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  owner = await signUpTestOwner(env.testApp.app, env.testApp.deps.db.prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 100 })).statusCode).toBe(200);
  const { port } = receiver.address() as AddressInfo;
  const webhook = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/webhooks', { url: `http://127.0.0.1:${port}/hooks`, events: ['settlement.completed'] });
  expect(webhook.statusCode, webhook.body).toBe(201);
}, 300_000);

afterAll(async () => {
  await env?.close();
  receiver?.close();
  await tracing?.shutdown();
});

describe('tracing', () => {
  it('follows an agent payment in one trace from its HTTP request through the workflow and its activities to the database and the webhook it sends', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    exporter.reset();

    let spans: ReadableSpan[] = [];
    let intentId = '';
    await env.runWorker(async () => {
      const paid = await agentCall(appUrl, agent, 'POST', '/payment', { amount: 2, to_address: 'api.example.com' }, { baggage: BAGGAGE });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      intentId = paid.body.intent_id as string;
      // Workflow spans end with their runs, after the answer: the payment's last steps, the webhook's delivery.
      await env.client.workflow.getHandle(paymentWorkflowId(intentId)).result();
      await vi.waitFor(() => {
        spans = traceOf(requestSpan(exporter.getFinishedSpans()), exporter.getFinishedSpans());
        expect(spans.map((span) => span.name)).toContain(`RunWorkflow:${WORKFLOW_NAMES.webhookDelivery}`);
      }, 30_000);
    });

    const request = requestSpan(spans);
    const parentOf = (span: ReadableSpan) => spans.find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId);
    const ancestors = (span: ReadableSpan): ReadableSpan[] => {
      const parent = parentOf(span);
      return parent ? [parent, ...ancestors(parent)] : [];
    };
    const named = (name: string) => spans.filter((span) => span.name === name);
    const only = (name: string) => {
      expect(named(name), name).toHaveLength(1);
      return named(name)[0]!;
    };

    // The agent's fetch (undici) sent the trace along: the request span is its child.
    expect(parentOf(request)).toMatchObject({ kind: SpanKind.CLIENT, instrumentationScope: { name: '@opentelemetry/instrumentation-undici' } });

    const startWorkflow = only(`StartWorkflow:${WORKFLOW_NAMES.payment}`);
    expect(ancestors(startWorkflow)).toContain(request);
    const runWorkflow = only(`RunWorkflow:${WORKFLOW_NAMES.payment}`);
    expect(parentOf(runWorkflow)).toBe(startWorkflow);
    expect(runWorkflow.attributes.temporalWorkflowId).toBe(paymentWorkflowId(intentId));
    expect(runWorkflow.resource.attributes).toEqual(request.resource.attributes);

    // The payment steps, local activities, each below the run, each with its queries below it.
    const steps = spans.filter((span) => span.name.startsWith('RunActivity:') && ancestors(span).includes(runWorkflow));
    expect(steps.map((span) => span.name)).toEqual(expect.arrayContaining(['RunActivity:authorizePayment', 'RunActivity:executeOnRail', 'RunActivity:settle']));
    const queries = spans.filter((span) => span.name === 'prisma:client:db_query');
    for (const step of steps) expect(queries.some((query) => ancestors(query).includes(step)), step.name).toBe(true);
    // The request's own queries (the intent it records) sit below it, outside the workflow.
    expect(queries.some((query) => ancestors(query).includes(request) && !ancestors(query).includes(runWorkflow))).toBe(true);

    // Settling started the webhook's delivery workflow, whose activity posted to the receiver.
    const delivery = only(`RunWorkflow:${WORKFLOW_NAMES.webhookDelivery}`);
    expect(ancestors(delivery)).toContain(runWorkflow);
    const post = spans.find((span) => span.kind === SpanKind.CLIENT && span.instrumentationScope.name === 'purser-outbound');
    expect(post).toBeDefined();
    expect(ancestors(post!).map((span) => span.name)).toContain('RunActivity:attemptWebhookDelivery');
    expect(ancestors(post!)).toContain(delivery);
    expect(post!.attributes['url.path']).toBe('REDACTED');
    const hook = received.find((request) => request.traceparent === `00-${post!.spanContext().traceId}-${post!.spanContext().spanId}-01`);
    expect(hook).toBeDefined();
    // The caller's baggage reached neither the workflow nor the receiver.
    expect(hook!.baggage).toBeUndefined();

    // One trace, whole: every span's parent is in it, but the agent's fetch that began it.
    expect(spans.filter((span) => !parentOf(span))).toEqual([parentOf(request)]);
  });


  it("sends a seller the paid call's traceparent and never the caller's baggage", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const { port } = receiver.address() as AddressInfo;
    const fetched = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `http://127.0.0.1:${port}/seller/free` }, { baggage: BAGGAGE });
    expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
    const call = received.find((request) => request.path === '/seller/free');
    expect(call).toBeDefined();
    expect(call!.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(call!.baggage).toBeUndefined();
  });
});

/** The server span of the agent's payment request. */
function requestSpan(spans: ReadableSpan[]): ReadableSpan {
  const request = spans.find((span) => span.kind === SpanKind.SERVER && span.attributes['http.route'] === `${AGENT_API_PREFIX}/payment`);
  expect(request).toBeDefined();
  return request!;
}

function traceOf(member: ReadableSpan, spans: ReadableSpan[]): ReadableSpan[] {
  return spans.filter((span) => span.spanContext().traceId === member.spanContext().traceId);
}
