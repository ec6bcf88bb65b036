import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { devServerEnvironment, loadEnv } from '../env';
import { createLogger } from '../logger';
import { startTracing, startTracingFromEnv, traceExporters } from './tracing';

describe('traceExporters', () => {
  it('is off by default', () => {
    expect(traceExporters(loadEnv({}))).toEqual([]);
    expect(startTracingFromEnv(loadEnv({}))).toBeUndefined();
  });

  it('exports to the exporters OTEL_TRACES_EXPORTER names, or over OTLP when only an endpoint is set', () => {
    expect(traceExporters(loadEnv({ OTEL_TRACES_EXPORTER: 'otlp' }))).toEqual(['otlp']);
    expect(traceExporters(loadEnv({ OTEL_TRACES_EXPORTER: 'otlp, console' }))).toEqual(['otlp', 'console']);
    expect(traceExporters(loadEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toEqual(['otlp']);
    expect(traceExporters(loadEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }))).toEqual(['otlp']);
  });

  it('stays off when OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, whatever else is set', () => {
    expect(traceExporters(loadEnv({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }))).toEqual([]);
    expect(traceExporters(loadEnv({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toEqual([]);
    expect(traceExporters(loadEnv({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toEqual([]);
  });

  it('refuses an exporter Purser does not have', () => {
    expect(() => loadEnv({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
  });

  it('keeps OTEL_* from the embedded Temporal dev server, which would read them as its own', () => {
    expect(devServerEnvironment({ OTEL_TRACES_EXPORTER: 'console', OTEL_SERVICE_NAME: 'purser', PATH: '/usr/bin' })).toEqual({ PATH: '/usr/bin' });
  });
});

describe('log lines', () => {
  it('carry the trace and span ids of the span they are written in, and none outside a span', async () => {
    const tracing = startTracing({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())], role: 'test' });
    try {
      const lines: Array<Record<string, unknown>> = [];
      const logger = createLogger({ LOG_LEVEL: 'info', LOG_PRETTY: false }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
      const ids = trace.getTracer('test').startActiveSpan('request', (span) => {
        logger.info('inside');
        span.end();
        return span.spanContext();
      });
      logger.info({ step: 1 }, 'outside');
      logger.info('outside again');

      expect(lines[0]).toMatchObject({ msg: 'inside', trace_id: ids.traceId, span_id: ids.spanId });
      expect(lines[1]).toMatchObject({ msg: 'outside', step: 1 });
      expect(lines[1]).not.toHaveProperty('trace_id');
      // Each line has its own fields only.
      expect(lines[2]).not.toHaveProperty('step');
    } finally {
      await tracing.shutdown();
    }
  });
});
