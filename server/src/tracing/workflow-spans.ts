/**
 * Workflow code runs in Temporal's sandbox, with no exporter: its OpenTelemetry interceptors
 * hand their spans to the worker through the `exporter` sink, and this sink passes them to the
 * process's span processors. The interceptors make spans with OpenTelemetry JS 1.x (their own
 * dependency), so each is rebuilt in the shape the 2.x processors read (parentSpanContext,
 * instrumentationScope). The sink is not called while a workflow replays: a span made again on
 * replay was exported when it first ended.
 */
import { createTraceState, type SpanContext } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { SerializableSpan } from '@temporalio/interceptors-opentelemetry';
import type { WorkerTracing } from '@purser/workflows';

export function workflowSpanSink(processors: SpanProcessor[], resource: Resource): WorkerTracing['workflowSpanSink'] {
  return {
    export: {
      fn(info, spans) {
        // The attribute names of Temporal's activity spans, so both are found by the same query.
        const workflow = { temporalWorkflowId: info.workflowId, run_id: info.runId };
        for (const span of spans) {
          const readable = readableSpan(span, resource, workflow);
          for (const processor of processors) processor.onEnd(readable);
        }
      },
    },
  };
}

function readableSpan(span: SerializableSpan, resource: Resource, workflow: Record<string, string>): ReadableSpan {
  const { traceState, ...ids } = span.spanContext;
  const spanContext: SpanContext = { ...ids, ...(traceState !== undefined && { traceState: createTraceState(traceState) }) };
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => spanContext,
    parentSpanContext: span.parentSpanId ? { traceId: ids.traceId, spanId: span.parentSpanId, traceFlags: ids.traceFlags } : undefined,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status,
    attributes: { ...span.attributes, ...workflow },
    links: span.links,
    events: span.events,
    duration: span.duration,
    ended: span.ended,
    resource,
    instrumentationScope: span.instrumentationLibrary,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}
