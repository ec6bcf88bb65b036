/**
 * Takes the configured secret URLs (secret-urls.ts) out of every span before it is exported:
 * its name, attributes, events (an exception's message and stack: a failed RPC call's viem error
 * quotes the RPC URL, key and all) and status message. The outbound spans already keep only a
 * URL's origin (outbound-span.ts); this covers what others record, Temporal's interceptors
 * recording an activity's error among them.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Redact } from '../secret-urls';

export function redactingSpanProcessor(inner: SpanProcessor, redact: Redact): SpanProcessor {
  return {
    onStart: (span, parentContext) => inner.onStart(span, parentContext),
    onEnd: (span) => inner.onEnd(redactedSpan(span, redact)),
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
  };
}

function redactedSpan(span: ReadableSpan, redact: Redact): ReadableSpan {
  const attributes = (values: Attributes): Attributes => Object.fromEntries(Object.entries(values).map(([key, value]) => [key, redactedValue(value, redact)]));
  return {
    name: redact(span.name),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status.message === undefined ? span.status : { ...span.status, message: redact(span.status.message) },
    attributes: attributes(span.attributes),
    links: span.links.map((link) => (link.attributes ? { ...link, attributes: attributes(link.attributes) } : link)),
    events: span.events.map((event) => ({ ...event, name: redact(event.name), ...(event.attributes && { attributes: attributes(event.attributes) }) })),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

function redactedValue(value: AttributeValue | undefined, redact: Redact): AttributeValue | undefined {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? redact(item) : item)) as AttributeValue;
  return value;
}
