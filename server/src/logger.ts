import pino from 'pino';
import type { Env } from './env';

export type Logger = pino.Logger;

export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'LOG_PRETTY'>): Logger {
  const pretty = env.LOG_PRETTY ?? process.stdout.isTTY;
  return pino({
    level: env.LOG_LEVEL,
    // Secrets never reach the logs even when a request object is logged whole.
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret', '*.apiKey', '*.privateKey'],
      censor: '[redacted]',
    },
    transport: pretty ? { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss' } } : undefined,
  });
}
