/**
 * One declaration per HTTP operation, on every REST surface (/api/v1, /functions/v1, /auth/v1,
 * the identity documents, the sandbox's paid API): its zod schemas drive validation, the
 * OpenAPI document and the handler's types, so the document cannot drift from what the server
 * accepts. register-route.ts serves a declaration; openapi.ts documents it.
 */
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { RouteScope } from '../../services/api-keys/authorize-owner-api-key-use';
import type { AuthenticatedOwner } from '../../services/auth/authenticate-owner';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** The route's owner: a session, or an owner API key that holds the route's scope. */
export type Owner = AuthenticatedOwner;

/** `D`: what the surface hands its handlers, the app's deps unless a surface has less. */
export interface HandlerContext<P, Q, B, D = AppDeps> {
  deps: D;
  owner: Owner;
  params: P;
  query: Q;
  body: B;
  idempotencyKey: string | undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Who may call: the owner ('owner', the default: bearer access token, owner API key or session
 * cookie), anyone ('public'), or the web app's public anonymous key as bearer ('client-key').
 */
export type RouteAuth = 'owner' | 'public' | 'client-key';

/**
 * An owner route names the one scope an owner API key must hold to call it (a session may call
 * every route), so no owner route exists without one; 'session' is for the few no key may call
 * (creating and revoking keys). Routes of anyone or the client key name none.
 */
type RouteAccess = { auth?: Extract<RouteAuth, 'owner'>; scope: RouteScope } | { auth: Exclude<RouteAuth, 'owner'>; scope?: undefined };

type RouteDeclaration<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> = RouteAccess & {
  method: HttpMethod;
  /** Fastify path below the surface's base path, e.g. '/agents/:agentId' below /api/v1. */
  path: string;
  operationId: string;
  summary: string;
  /** Longer text for the reference page (markdown). */
  description?: string;
  tag: string;
  /** Money-moving routes document and honour the Idempotency-Key header. */
  idempotent?: boolean;
  params?: P;
  query?: Q;
  /** The body; with `bodyFor`, every body the route takes (a union), as the document shows it. */
  body?: B;
  /**
   * When a query parameter decides which body is valid (OAuth's token endpoint: `grant_type`),
   * the member of `body` that validates this request. The query is then read before the body.
   */
  bodyFor?(query: z.output<Q>): z.ZodType<z.output<B>>;
  response: R;
  status?: number;
  /** Other answers worth naming, e.g. 202 for a payment that waits for approval, 402 for a paywall. */
  otherResponses?: Record<string, string>;
  /** Fastify route config, e.g. a per-route rate limit. */
  config?: FastifyContextConfig;
};

/** Answers one JSON document, parsed with `response` before it is sent. */
export type JsonApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  D = AppDeps,
> = RouteDeclaration<P, Q, B, R> & {
  stream?: undefined;
  mediaType?: undefined;
  handler(context: HandlerContext<z.output<P>, z.output<Q>, z.output<B>, D>): Promise<z.input<R>>;
};

/**
 * Answers a download streamed as it is read, so its size is not bounded by memory: the
 * handler gives the items already serialized, one per line, and may set headers on `reply`
 * (Content-Disposition); `response` documents one item.
 */
export type StreamApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  D = AppDeps,
> = RouteDeclaration<P, Q, B, R> & {
  /** The media type: JSON Lines. */
  stream: 'application/x-ndjson';
  mediaType?: undefined;
  handler(context: HandlerContext<z.output<P>, z.output<Q>, z.output<B>, D>): Promise<AsyncIterable<string>>;
};

/**
 * Answers on `reply` itself what one parsed JSON document cannot be: server-sent events, a
 * document of another media type sent as given (a DID document, a status list JWT), or an
 * answer made elsewhere and passed on (the sandbox's x402 paywall). `mediaType` is the success
 * answer's; `response` documents its body (for events, each event's data).
 */
export type ReplyApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  D = AppDeps,
> = RouteDeclaration<P, Q, B, R> & {
  stream?: undefined;
  mediaType: string;
  /** Sends the answer (status, headers, body) or hijacks the reply, and returns it. */
  handler(context: HandlerContext<z.output<P>, z.output<Q>, z.output<B>, D>): Promise<FastifyReply>;
};

export type ApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  D = AppDeps,
> = JsonApiRoute<P, Q, B, R, D> | StreamApiRoute<P, Q, B, R, D> | ReplyApiRoute<P, Q, B, R, D>;

/** Identity function that keeps each route's schema types tied to its handler. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType, D = AppDeps>(
  route: JsonApiRoute<P, Q, B, R, D>,
): JsonApiRoute<P, Q, B, R, D>;
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType, D = AppDeps>(
  route: StreamApiRoute<P, Q, B, R, D>,
): StreamApiRoute<P, Q, B, R, D>;
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType, D = AppDeps>(
  route: ReplyApiRoute<P, Q, B, R, D>,
): ReplyApiRoute<P, Q, B, R, D>;
export function defineRoute(route: ApiRoute): ApiRoute {
  return route;
}
