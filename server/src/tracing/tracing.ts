/**
 * OpenTelemetry traces: one trace follows a request through the payment workflow and its
 * activities to the database and the outbound calls (sellers, chain RPC, webhook receivers).
 * Off unless the standard OTEL_* variables ask for it. startTracing() registers the tracer
 * provider, the context manager and the W3C trace-context propagator for the whole process, and the
 * instrumentations that need no require hooks: undici's diagnostics channels (every fetch) and
 * Prisma's global helper. The HTTP plugin and the Temporal interceptors it returns are wired by
 * buildApp, the runtime's Client and createPaymentsWorker.
 */
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import type { ClientInterceptors } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { FastifyPluginCallback } from 'fastify';
import type { WorkerTracing } from '@purser/workflows';
import type { Env } from '../env';
import { secretUrlRedactor, secretUrlsOf, type Redact, type SecretUrlEnv } from '../secret-urls';
import { redactedUrlAttributes } from './outbound-span';
import { redactingSpanProcessor } from './redacting-span-processor';
import { workflowSpanSink } from './workflow-spans';

/** Probes and scrapes, every few seconds: their spans would bury the requests. */
const UNTRACED_PATHS = new Set(['/healthz', '/metrics']);

export type TraceExporterName = 'otlp' | 'console';

type TracingEnv = Pick<Env, 'OTEL_SDK_DISABLED' | 'OTEL_TRACES_EXPORTER' | 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'>;

/**
 * The exporters the environment asks for; none (the default) means tracing is off. An OTLP
 * endpoint alone asks for OTLP; OTEL_TRACES_EXPORTER=none and OTEL_SDK_DISABLED=true win.
 */
export function traceExporters(env: TracingEnv): TraceExporterName[] {
  if (env.OTEL_SDK_DISABLED) return [];
  if (env.OTEL_TRACES_EXPORTER) {
    const exporters = env.OTEL_TRACES_EXPORTER.filter((name) => name !== 'none');
    // `none` anywhere in the list means no exporter.
    return exporters.length === env.OTEL_TRACES_EXPORTER.length ? [...new Set(exporters)] : [];
  }
  return env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? ['otlp'] : [];
}

export interface Tracing {
  /** Registered first by buildApp: a span for each request, active while it is handled. */
  httpPlugin: FastifyPluginCallback;
  /** The Temporal Client's: starting a workflow carries the caller's trace into it. */
  clientInterceptors: ClientInterceptors;
  /** createPaymentsWorker's `tracing`. */
  worker: WorkerTracing;
  /** Exports the spans still buffered, then undoes what startTracing registered. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** Where spans go: the exporters' batch processors, or a test's in-memory exporter. */
  spanProcessors: SpanProcessor[];
  /** Which parts of the product this process runs (the resource attribute purser.role). */
  role: string;
  /** Takes secrets (the configured secret URLs, secret-urls.ts) out of every span before its processors see it. */
  redact?: Redact;
}

/** Tracing as OTEL_* configures it, or undefined when it is off. The exporters read their own OTEL_EXPORTER_OTLP_* variables. */
export function startTracingFromEnv(env: TracingEnv & Pick<Env, 'RUN_SERVER' | 'RUN_WORKER'> & SecretUrlEnv): Tracing | undefined {
  const exporters = traceExporters(env);
  if (exporters.length === 0) return undefined;
  const spanProcessors = exporters.map((name) => new BatchSpanProcessor(name === 'otlp' ? new OTLPTraceExporter() : new ConsoleSpanExporter()));
  const role = [env.RUN_SERVER && 'server', env.RUN_WORKER && 'worker'].filter(Boolean).join('+') || 'health';
  return startTracing({ spanProcessors, role, redact: secretUrlRedactor(secretUrlsOf(env)) });
}

export function startTracing({ spanProcessors: exporting, role, redact }: TracingOptions): Tracing {
  const spanProcessors = redact ? exporting.map((processor) => redactingSpanProcessor(processor, redact)) : exporting;
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override these defaults.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'purser', 'purser.role': role }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors });
  // Trace context only, not the default's W3C baggage too: a caller's `baggage` header is never
  // taken in, so it travels neither into workflows nor out to sellers, webhook receivers or the
  // chain's RPC (whose calls carry traceparent alone).
  provider.register({ propagator: new W3CTraceContextPropagator() });

  const http = new FastifyOtelInstrumentation({
    ignorePaths: ({ url }) => UNTRACED_PATHS.has(url.split('?')[0] ?? url),
    // The request and handler spans are enough; a span for every hook is noise.
    instrumentHooks: false,
    requestHook: (span, request) => span.updateName(`${request.method} ${request.routeOptions.url ?? ''}`.trim()),
  });
  const fetches = new UndiciInstrumentation({ startSpanHook: (request) => redactedUrlAttributes(new URL(request.origin)) });
  const instrumentations = [http, fetches, new PrismaInstrumentation()];

  return {
    httpPlugin: http.plugin(),
    clientInterceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] },
    worker: { workflowSpanSink: workflowSpanSink(spanProcessors, resource) },
    async shutdown() {
      for (const instrumentation of instrumentations) instrumentation.disable();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
