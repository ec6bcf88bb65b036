/**
 * Who may read GET /metrics, and where it is served. The rule, for each listener:
 *
 * - METRICS_PORT set: a listener of its own (METRICS_HOST, loopback by default) answers it
 *   without a token; bind it where only the scraper reaches. PORT then does not serve it (404).
 * - Otherwise PORT serves it. With OPERATOR_TOKEN set, only to that bearer token, whatever the
 *   host. Without one, open when HOST is loopback (npm start's default, 127.0.0.1), where only
 *   this machine reaches it; on any other host (0.0.0.0, ::, a public address) closed to everyone
 *   (403), never open.
 */
import { BlockList, isIP } from 'node:net';
import { AppError } from '@purser/core';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Env } from '../env';
import type { Logger } from '../logger';
import type { AppMetrics } from '../metrics/metrics';
import { requireOperator } from './operator-token';

/** open: anyone who reaches the listener; operator: the bearer token only; elsewhere: not on this listener. */
export type MetricsAccess = 'open' | 'operator' | 'elsewhere';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** A listen address only this machine reaches: 127.0.0.0/8, ::1 (IPv4-mapped too), localhost. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  const version = isIP(host);
  return version !== 0 && LOOPBACK.check(host, version === 4 ? 'ipv4' : 'ipv6');
}

/** How the main listener (HOST:PORT) answers GET /metrics. */
export function metricsAccess(env: Pick<Env, 'HOST' | 'METRICS_PORT' | 'OPERATOR_TOKEN'>): MetricsAccess {
  if (env.METRICS_PORT !== undefined) return 'elsewhere';
  if (env.OPERATOR_TOKEN !== undefined) return 'operator';
  return isLoopbackHost(env.HOST) ? 'open' : 'operator';
}

/** Registers GET /metrics on `app` as `access` says; nothing for 'elsewhere' (a 404 there). */
export function registerMetricsRoute(app: FastifyInstance, metrics: AppMetrics, access: MetricsAccess, operatorToken: string | undefined): void {
  if (access === 'elsewhere') return;
  app.get('/metrics', async (request, reply) => {
    if (access === 'operator') {
      if (operatorToken === undefined) {
        throw new AppError(
          'FORBIDDEN',
          'GET /metrics is closed: this server listens beyond loopback and has no OPERATOR_TOKEN. Set one and scrape with it, or serve metrics on METRICS_PORT',
        );
      }
      requireOperator(operatorToken, request.headers.authorization);
    }
    return reply.type(metrics.contentType).send(await metrics.scrape());
  });
}

/** The METRICS_PORT listener: GET /metrics of `metrics` (the app's, so one registry), nothing else. */
export async function startMetricsServer(options: { metrics: AppMetrics; host: string; port: number; logger: Logger }): Promise<FastifyInstance> {
  const server = Fastify({ loggerInstance: options.logger as FastifyBaseLogger, disableRequestLogging: true });
  registerMetricsRoute(server, options.metrics, 'open', undefined);
  await server.listen({ host: options.host, port: options.port });
  return server;
}
