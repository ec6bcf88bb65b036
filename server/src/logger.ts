import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import pino from 'pino';
import type { Env } from './env';
import { secretUrlRedactor, secretUrlsOf, type SecretUrlEnv } from './secret-urls';

export type Logger = pino.Logger;

/**
 * `destination`: where lines go (stdout when absent). The configured URLs that carry keys or
 * passwords (secret-urls.ts: EVM_RPC_URL, DATABASE_URL, ...) are taken out of every line as it
 * is written, wherever they sit: a field, a message, an error's message or stack, its cause.
 */
export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'LOG_PRETTY'> & SecretUrlEnv, destination?: pino.DestinationStream): Logger {
  const pretty = env.LOG_PRETTY ?? process.stdout.isTTY;
  const redact = secretUrlRedactor(secretUrlsOf(env));
  return pino(
    {
      level: env.LOG_LEVEL,
      hooks: { streamWrite: redact },
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
