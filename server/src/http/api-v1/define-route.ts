/**
 * One declaration per REST operation: its zod schemas drive validation, the OpenAPI document
 * and the handler's types, so the document cannot drift from what the server accepts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppDeps } from '../../trpc/context';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Owner {
  userId: string;
  via: 'session' | 'api_key';
}

export interface HandlerContext<P, Q, B> {
  deps: AppDeps;
  owner: Owner;
  params: P;
  query: Q;
  body: B;
  idempotencyKey: string | undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface ApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Fastify path below /api/v1, e.g. '/agents/:agentId'. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** 'public' routes need no owner (credential verification). */
  auth?: 'owner' | 'public';
  /** Money-moving routes document and honour the Idempotency-Key header. */
  idempotent?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  status?: number;
  handler(context: HandlerContext<z.output<P>, z.output<Q>, z.output<B>>): Promise<z.input<R>>;
}

/** Identity function that keeps each route's schema types tied to its handler. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  route: ApiRoute<P, Q, B, R>,
): ApiRoute<P, Q, B, R> {
  return route;
}
