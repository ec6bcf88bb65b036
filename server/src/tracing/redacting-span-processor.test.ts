import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createPublicClient, http } from 'viem';
import { baseSepolia } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../env';
import { secretUrlRedactor, secretUrlsOf } from '../secret-urls';
import { startTracing } from './tracing';

const KEY = 'alchemyKey0123456789abcdefXYZ';

/** A JSON-RPC node that fails every call. */
let node: Server;
let rpcUrl: string;

beforeAll(async () => {
  node = createServer((request, response) => request.resume().on('end', () => response.writeHead(500).end('upstream unavailable')));
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  rpcUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}/v2/${KEY}`;
});

afterAll(() => new Promise<void>((resolve) => node.close(() => resolve())));

describe('spans', () => {
  it('carry no RPC key when a call to the node fails: not the fetch’s span, nor the exception and status a failed step records', async () => {
    const exporter = new InMemorySpanExporter();
    // As startTracingFromEnv builds it from the process's environment.
    const redact = secretUrlRedactor(secretUrlsOf(loadEnv({ EVM_RPC_URL: rpcUrl })));
    const tracing = startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)], role: 'test', redact });
    try {
      const client = createPublicClient({ chain: baseSepolia, transport: http(rpcUrl, { retryCount: 0 }) });
      // What Temporal's activity interceptor does with a step that throws: the error on its span.
      await trace.getTracer('test').startActiveSpan('RunActivity:settle', async (span) => {
        try {
          await client.getBlockNumber();
        } catch (error) {
          expect((error as Error).message).toContain(KEY);
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
          span.setAttribute('failure', String(error));
        } finally {
          span.end();
        }
      });

      const spans = exporter.getFinishedSpans();
      expect(spans.map((span) => span.name)).toEqual(expect.arrayContaining(['POST', 'RunActivity:settle']));
      const step = spans.find((span) => span.name === 'RunActivity:settle')!;
      expect(step.events.map((event) => event.name)).toContain('exception');
      expect(step.status.message).toContain('/[redacted]');
      for (const span of spans) {
        const shown = JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links });
        expect(shown, span.name).not.toContain(KEY);
      }
      // The span is still whole: its trace, its parent, its resource.
      expect(step.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(spans.find((span) => span.name === 'POST')!.parentSpanContext?.spanId).toBe(step.spanContext().spanId);
      expect(step.resource.attributes['purser.role']).toBe('test');
    } finally {
      await tracing.shutdown();
    }
  });
});
