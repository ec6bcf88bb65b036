/**
 * /auth/v1: owner sign-up, sign-in, refresh, sign-out and the current user, in the request
 * and response shapes of spec section 7. Sessions also travel as httpOnly cookies, so the
 * web app never holds a token in JavaScript. Sign-up and password sign-in are rate limited
 * per client address; password sign-in also backs off per email (sign-in-throttle.ts), which
 * no number of client addresses gets around.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AppError,
  logoutQuery,
  refreshTokenBody,
  signInBody,
  signUpBody,
  tokenQuery,
  type AuthSessionView,
} from '@purser/core';
import { authenticateOwner, bearerToken } from '../services/auth/authenticate-owner';
import { getOwnerUser } from '../services/auth/get-owner-user';
import { prepareDummyHash } from '../services/auth/password-hashing';
import { DEFAULT_SESSION_REFRESH, refreshSession, type SessionRefreshSettings } from '../services/auth/refresh-session';
import { revokeOwnerSession } from '../services/auth/revoke-session';
import { REFRESH_TOKEN_TTL_MS, SESSION_COOKIES, type ClientInfo } from '../services/auth/session-tokens';
import { signInOwner } from '../services/auth/sign-in-owner';
import { DEFAULT_SIGN_IN_THROTTLE, type SignInThrottleSettings } from '../services/auth/sign-in-throttle';
import { signUpOwner } from '../services/auth/sign-up-owner';
import { looksLikeOwnerApiKey } from '../services/api-keys/owner-api-key-secret';
import type { AppDeps } from '../trpc/context';
import { parseInput } from './request-input';

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

export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions): Promise<void> {
  const { deps } = options;
  const limits = { ...DEFAULT_AUTH_RATE_LIMITS, ...options.rateLimits };
  const throttle = { ...DEFAULT_SIGN_IN_THROTTLE, ...options.signInThrottle };
  const sessionRefresh = { ...DEFAULT_SESSION_REFRESH, ...options.sessionRefresh };
  const secure = deps.publicUrl.startsWith('https:');

  // Scoped to this plugin: only the routes below that ask for a limit get one.
  await app.register(fastifyRateLimit, {
    global: false,
    timeWindow: limits.windowMs,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`),
    onExceeded: (request) => request.log.warn({ route: request.routeOptions.url }, 'auth rate limit exceeded'),
  });
  // The dummy hash makes sign-in for unknown emails as slow as for known ones; compute it now
  // so the first such sign-in does not stand out.
  await prepareDummyHash();

  app.post('/signup', { config: { rateLimit: { max: limits.signUp } } }, async (request, reply) => {
    const input = parseInput(signUpBody, request.body);
    const session = await signUpOwner(deps, input, { client: clientInfo(request) });
    return sendSession(reply, session, secure);
  });

  app.post(
    '/token',
    {
      config: {
        rateLimit: {
          // Password guesses and refreshes are counted apart: refreshing is routine.
          keyGenerator: (request) => `${request.ip}|${grantType(request)}`,
          max: (request) => (grantType(request) === 'refresh_token' ? limits.refresh : limits.password),
        },
      },
    },
    async (request, reply) => {
      const { grant_type } = parseInput(tokenQuery, request.query);
      if (grant_type === 'password') {
        const input = parseInput(signInBody, request.body);
        try {
          return sendSession(reply, await signInOwner(deps, input, { client: clientInfo(request), throttle }), secure);
        } catch (error) {
          const retryAfter = retryAfterSeconds(error);
          if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
          throw error;
        }
      }
      const body = parseInput(refreshTokenBody, request.body);
      const refreshToken = body.refresh_token ?? request.cookies[SESSION_COOKIES.refresh];
      if (!refreshToken) throw new AppError('VALIDATION_FAILED', 'Refresh token is required');
      try {
        const refreshed = await refreshSession(deps, refreshToken, {
          client: clientInfo(request),
          now: sessionRefresh.now(),
          reuseIntervalMs: sessionRefresh.reuseIntervalMs,
        });
        return sendSession(reply, refreshed, secure);
      } catch (error) {
        // A dead refresh cookie is useless to the browser: drop both so it shows signed out.
        if (error instanceof AppError && error.code === 'UNAUTHORIZED') clearSessionCookies(reply, secure);
        throw error;
      }
    },
  );

  app.post('/logout', async (request, reply) => {
    const { scope } = parseInput(logoutQuery, request.query);
    const header = bearerToken(request.headers.authorization);
    const accessToken = header && !looksLikeOwnerApiKey(header) ? header : request.cookies[SESSION_COOKIES.access];
    const body = refreshTokenBody.safeParse(request.body ?? {});
    const refreshToken = (body.success ? body.data.refresh_token : undefined) ?? request.cookies[SESSION_COOKIES.refresh];
    await revokeOwnerSession(deps, { accessToken, refreshToken, scope });
    clearSessionCookies(reply, secure);
    return reply.status(204).send();
  });

  app.get('/user', async (request, reply) => {
    const owner = await authenticateOwner(deps, { authorization: request.headers.authorization, cookies: request.cookies });
    if (!owner) throw new AppError('UNAUTHORIZED', 'Authentication required');
    return reply.header('cache-control', 'no-store').send(await getOwnerUser(deps.db.prisma, owner.userId));
  });
}

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

function sendSession(reply: FastifyReply, session: AuthSessionView, secure: boolean): FastifyReply {
  const base = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const;
  reply.setCookie(SESSION_COOKIES.access, session.access_token, { ...base, maxAge: ACCESS_TOKEN_TTL_SECONDS });
  reply.setCookie(SESSION_COOKIES.refresh, session.refresh_token, { ...base, maxAge: REFRESH_TOKEN_TTL_MS / 1000 });
  // Tokens must not be kept by caches or proxies (RFC 6749 section 5.1).
  return reply.header('cache-control', 'no-store').send(session);
}

function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  const base = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const;
  reply.clearCookie(SESSION_COOKIES.access, base);
  reply.clearCookie(SESSION_COOKIES.refresh, base);
}
