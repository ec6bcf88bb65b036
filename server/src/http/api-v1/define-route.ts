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

interface RouteDeclaration<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> {
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
}

/** Answers one JSON document, parsed with `response` before it is sent. */
export interface JsonApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> extends RouteDeclaration<P, Q, B, R> {
  stream?: undefined;
  handler(context: HandlerContext<z.output<P>, z.output<Q>, z.output<B>>): Promise<z.input<R>>;
}

/**
 * Answers a download streamed as it is read, so its size is not bounded by memory: the
 * handler gives the items already serialized, one per line, and may set headers on `reply`
 * (Content-Disposition); `response` documents one item.
 */
export interface StreamApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> extends RouteDeclaration<P, Q, B, R> {
  /** The media type: JSON Lines. */
  stream: 'application/x-ndjson';
  handler(context: HandlerContext<z.output<P>, z.output<Q>, z.output<B>>): Promise<AsyncIterable<string>>;
}

export type ApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> = JsonApiRoute<P, Q, B, R> | StreamApiRoute<P, Q, B, R>;

/** Identity function that keeps each route's schema types tied to its handler. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  route: JsonApiRoute<P, Q, B, R>,
): JsonApiRoute<P, Q, B, R>;
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  route: StreamApiRoute<P, Q, B, R>,
): StreamApiRoute<P, Q, B, R>;
export function defineRoute(route: ApiRoute): ApiRoute {
  return route;
}
