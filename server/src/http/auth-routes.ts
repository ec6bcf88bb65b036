/**
 * /auth/v1: owner sign-up, sign-in, refresh, sign-out and the current user, in the request
 * and response shapes of spec section 7. Sessions also travel as httpOnly cookies, so the
 * web app never holds a token in JavaScript. Sign-up and password sign-in are rate limited
 * per client address, across all servers; password sign-in also backs off per email (sign-in-throttle.ts), which
 * no number of client addresses gets around.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AppError,
  authSessionView,
  authUserView,
  logoutQuery,
  refreshTokenBody,
  signInBody,
  signUpBody,
  tokenQuery,
  type AuthSessionView,
  type SignInInput,
} from '@purser/core';
import { bearerToken } from '../services/auth/authenticate-owner';
import { getOwnerUser } from '../services/auth/get-owner-user';
import { prepareDummyHash } from '../services/auth/password-hashing';
import { DEFAULT_SESSION_REFRESH, refreshSession, type SessionRefreshSettings } from '../services/auth/refresh-session';
import { revokeOwnerSession } from '../services/auth/revoke-session';
import { REFRESH_TOKEN_TTL_MS, SESSION_COOKIES, type ClientInfo } from '../services/auth/session-tokens';
import { signInOwner } from '../services/auth/sign-in-owner';
import { DEFAULT_SIGN_IN_THROTTLE, type SignInThrottleSettings } from '../services/auth/sign-in-throttle';
import { signUpOwner } from '../services/auth/sign-up-owner';
import { looksLikeOwnerApiKey } from '../services/api-keys/owner-api-key-secret';
import type { AppDeps } from '../deps';
import { defineRoute, type ApiRoute } from './api-v1/define-route';
import { registerRoute } from './api-v1/register-route';
import { clientAddressKey } from './client-address';
import { rateLimitStoreOptions } from './rate-limit-store';

export const AUTH_PREFIX = '/auth/v1';

export interface AuthRateLimits {
  /** Sign-ups per client address per window. */
  signUp: number;
  /** Password sign-ins per client address per window. */
  password: number;
  /** Refreshes per client address per window (the web app refreshes about hourly per tab). */
  refresh: number;
  windowMs: number;
}

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = { signUp: 10, password: 10, refresh: 60, windowMs: 60_000 };

export interface AuthRoutesOptions {
  deps: AppDeps;
  rateLimits?: Partial<AuthRateLimits>;
  /** Overrides of the per-email sign-in back-off (tests shorten it or move its clock). */
  signInThrottle?: Partial<SignInThrottleSettings>;
  /** Overrides of the refresh-token reuse interval and its clock (tests move the clock). */
  sessionRefresh?: Partial<SessionRefreshSettings>;
}

export type AuthRouteSettings = Omit<AuthRoutesOptions, 'deps'>;

const TAG = 'Auth';

/** The /auth/v1 operations. The settings set rate limits, the sign-in back-off and the refresh clock, never a schema. */
export function authApiRoutes(settings: AuthRouteSettings = {}): ApiRoute[] {
  const limits = { ...DEFAULT_AUTH_RATE_LIMITS, ...settings.rateLimits };
  const throttle = { ...DEFAULT_SIGN_IN_THROTTLE, ...settings.signInThrottle };
  const sessionRefresh = { ...DEFAULT_SESSION_REFRESH, ...settings.sessionRefresh };

  return [
    defineRoute({
      method: 'POST',
      path: '/signup',
      operationId: 'signUp',
      summary: 'Sign up with an invitation code; answers the session and sets the session cookies',
      tag: TAG,
      auth: 'public',
      body: signUpBody,
      response: authSessionView,
      config: { rateLimit: { max: limits.signUp } },
      async handler({ deps, body, request, reply }) {
        const session = await signUpOwner(deps, body, { client: clientInfo(request) });
        return withSessionCookies(reply, session, isSecure(deps));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/token',
      operationId: 'token',
      summary: 'Sign in (grant_type=password) or refresh the session (grant_type=refresh_token); answers the session and sets the session cookies',
      description:
        'With `grant_type=password` the body is `{ email, password }`; with `grant_type=refresh_token` it is `{ refresh_token }`, or empty when the refresh cookie carries the token. Password sign-in backs off per email: 429 with Retry-After.',
      tag: TAG,
      auth: 'public',
      query: tokenQuery,
      body: z.union([signInBody, refreshTokenBody]),
      bodyFor: ({ grant_type }) => (grant_type === 'password' ? signInBody : refreshTokenBody),
      response: authSessionView,
      config: {
        rateLimit: {
          // Password guesses and refreshes are counted apart: refreshing is routine.
          keyGenerator: (request) => `${clientAddressKey(request)}|${grantType(request)}`,
          max: (request) => (grantType(request) === 'refresh_token' ? limits.refresh : limits.password),
        },
      },
      async handler({ deps, query, body, request, reply }) {
        const secure = isSecure(deps);
        if (query.grant_type === 'password') {
          // bodyFor read the body with signInBody for this grant.
          const input = body as SignInInput;
          try {
            return withSessionCookies(reply, await signInOwner(deps, input, { client: clientInfo(request), throttle }), secure);
          } catch (error) {
            const retryAfter = retryAfterSeconds(error);
            if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
            throw error;
          }
        }
        const refreshToken = (body as z.output<typeof refreshTokenBody>).refresh_token ?? request.cookies[SESSION_COOKIES.refresh];
        if (!refreshToken) throw new AppError('VALIDATION_FAILED', 'Refresh token is required');
        try {
          const refreshed = await refreshSession(deps, refreshToken, {
            client: clientInfo(request),
            now: sessionRefresh.now(),
            reuseIntervalMs: sessionRefresh.reuseIntervalMs,
          });
          return withSessionCookies(reply, refreshed, secure);
        } catch (error) {
          // A dead refresh cookie is useless to the browser: drop both so it shows signed out.
          if (error instanceof AppError && error.code === 'UNAUTHORIZED') clearSessionCookies(reply, secure);
          throw error;
        }
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/logout',
      operationId: 'logout',
      summary: 'Sign out the session of the bearer access token or the session cookie (scope=global: every session of the owner) and clear the cookies',
      tag: TAG,
      auth: 'public',
      query: logoutQuery,
      // Sign-out never fails on its body: an unreadable one names no refresh token.
      body: refreshTokenBody.catch({}),
      response: z.undefined(),
      status: 204,
      async handler({ deps, query, body, request, reply }) {
        const header = bearerToken(request.headers.authorization);
        const accessToken = header && !looksLikeOwnerApiKey(header) ? header : request.cookies[SESSION_COOKIES.access];
        const refreshToken = body.refresh_token ?? request.cookies[SESSION_COOKIES.refresh];
        await revokeOwnerSession(deps, { accessToken, refreshToken, scope: query.scope });
        clearSessionCookies(reply, isSecure(deps));
        return undefined;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/user',
      operationId: 'getUser',
      summary: 'The signed-in owner',
      tag: TAG,
      scope: 'read',
      response: authUserView,
      async handler({ deps, owner, reply }) {
        reply.header('cache-control', 'no-store');
        return getOwnerUser(deps.db.prisma, owner.userId);
      },
    }),
  ] as ApiRoute[];
}

export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions): Promise<void> {
  const { deps, ...settings } = options;
  const limits = { ...DEFAULT_AUTH_RATE_LIMITS, ...settings.rateLimits };

  // Scoped to this plugin: only the routes below that ask for a limit get one. Counted where
  // every server sees the same counts (rate-limit-store.ts), each route apart.
  await app.register(fastifyRateLimit, {
    ...rateLimitStoreOptions(deps.rateLimitStore, 'auth'),
    global: false,
    timeWindow: limits.windowMs,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`),
    onExceeded: (request) => request.log.warn({ route: request.routeOptions.url }, 'auth rate limit exceeded'),
  });
  // The dummy hash makes sign-in for unknown emails as slow as for known ones; compute it now
  // so the first such sign-in does not stand out.
  await prepareDummyHash();

  for (const route of authApiRoutes(settings)) registerRoute(app, route, { deps, owners: { deps, refusal: 'Authentication required' } });
}

const isSecure = (deps: AppDeps) => deps.publicUrl.startsWith('https:');

function grantType(request: FastifyRequest): string {
  const value = (request.query as { grant_type?: unknown } | undefined)?.grant_type;
  return typeof value === 'string' ? value : '';
}

/** The back-off's wait, when the error is the per-email lock. */
function retryAfterSeconds(error: unknown): number | undefined {
  if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') return undefined;
  const seconds = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' ? seconds : undefined;
}

function clientInfo(request: FastifyRequest): ClientInfo {
  return { userAgent: request.headers['user-agent'], ipAddress: request.ip };
}

/** Sets the session cookies and forbids caching; the session is the answer. */
function withSessionCookies(reply: FastifyReply, session: AuthSessionView, secure: boolean): AuthSessionView {
  const base = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const;
  reply.setCookie(SESSION_COOKIES.access, session.access_token, { ...base, maxAge: ACCESS_TOKEN_TTL_SECONDS });
  reply.setCookie(SESSION_COOKIES.refresh, session.refresh_token, { ...base, maxAge: REFRESH_TOKEN_TTL_MS / 1000 });
  // Tokens must not be kept by caches or proxies (RFC 6749 section 5.1).
  reply.header('cache-control', 'no-store');
  return session;
}

function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  const base = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const;
  reply.clearCookie(SESSION_COOKIES.access, base);
  reply.clearCookie(SESSION_COOKIES.refresh, base);
}
