/**
 * The spans of outbound HTTP calls. fetch (the chain's RPC, the facilitator, the assistant's
 * provider) is traced by undici's instrumentation; the outbound client for URLs others chose
 * (x402 sellers, webhook receivers) uses node:http, so traceOutbound makes its span and sends
 * the trace along in a W3C traceparent header, and nothing else of the context: never `baggage`
 * (a caller's, which tracing.ts does not even take in) nor `tracestate`. With tracing off the
 * tracer and the propagator are no-ops: no span, no header.
 *
 * A span keeps only the origin of a URL: RPC providers carry their API key in the path
 * (…/v2/<key>), webhook URLs their secret, seller URLs an agent's parameters in the query.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
  ATTR_URL_PATH,
  ATTR_URL_QUERY,
} from '@opentelemetry/semantic-conventions';

const REDACTED = 'REDACTED';

/** What a span says of a URL: its origin, the path and query redacted. */
export function redactedUrlAttributes(url: URL): Attributes {
  return {
    [ATTR_URL_FULL]: url.origin,
    [ATTR_URL_PATH]: REDACTED,
    [ATTR_URL_QUERY]: REDACTED,
    [ATTR_SERVER_ADDRESS]: url.hostname,
    [ATTR_SERVER_PORT]: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
  };
}

/** The only header of the trace a party someone else chose gets. */
const SENT_TRACE_HEADERS = ['traceparent'];

/** Runs `send` with `headers` and the trace's traceparent, inside a CLIENT span that ends with the answer. */
export function traceOutbound<R extends { status: number }>(method: string, url: URL, headers: Record<string, string>, send: (headers: Record<string, string>) => Promise<R>): Promise<R> {
  const attributes = { [ATTR_HTTP_REQUEST_METHOD]: method, ...redactedUrlAttributes(url) };
  return trace.getTracer('purser-outbound').startActiveSpan(method, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    const traced = { ...headers };
    for (const name of SENT_TRACE_HEADERS) if (carrier[name] !== undefined) traced[name] = carrier[name];
    try {
      const response = await send(traced);
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.status);
      if (response.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR }).setAttribute(ATTR_ERROR_TYPE, String(response.status));
      return response;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      span.setAttribute(ATTR_ERROR_TYPE, error instanceof Error ? error.name : 'Error');
      throw error;
    } finally {
      span.end();
    }
  });
}
