import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import pino from 'pino';
import type { Env } from './env';

export type Logger = pino.Logger;

/** `destination`: where lines go (stdout when absent). */
export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'LOG_PRETTY'>, destination?: pino.DestinationStream): Logger {
  const pretty = env.LOG_PRETTY ?? process.stdout.isTTY;
  return pino(
    {
      level: env.LOG_LEVEL,
      // Secrets never reach the logs even when a request object is logged whole.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret', '*.apiKey', '*.privateKey'],
        censor: '[redacted]',
      },
      // With tracing on, a line written inside a span names it, so the trace of a log line is found.
      mixin: traceFields,
      transport: pretty ? { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss' } } : undefined,
    },
    destination,
  );
}

/** A new object each time: pino merges the line's own fields into it. */
function traceFields(): object {
  const span = trace.getSpanContext(context.active());
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
}
