/**
 * Cross-site request forgery: a write the session cookie would authenticate is served only when
 * the browser says it comes from the product's own pages, as OWASP's CSRF Prevention Cheat Sheet
 * lays out ("Fetch Metadata headers", "Verifying Origin with standard headers"). On the owner's
 * surfaces (owner-surfaces.ts), for every method but GET, HEAD and OPTIONS, whatever the body
 * (JSON, multipart, form, none), before anything is read or run:
 *
 * - `Sec-Fetch-Site: cross-site` is refused;
 * - `Origin`, when sent, must be an allowed origin (`null` never is);
 * - without it, the `Referer`'s origin must be;
 * - without either, the write is refused. Browsers send Origin with every fetch() that writes,
 *   same-origin ones included (the Referrer-Policy no-referrer of our pages drops only Referer);
 *   a client that sends neither is no browser, and authenticates with a bearer token instead.
 *
 * Allowed: the product's public origin (PUBLIC_URL) and the request's own origin as its client
 * addressed it: the Host header, or X-Forwarded-Host and X-Forwarded-Proto where a proxy that
 * TRUST_PROXY trusts wrote them. The second covers a deployment reached under several names and
 * the Vite dev and preview servers, which forward the browser's Host.
 *
 * Unwatched: a request with an owner's bearer token (the cookie is then ignored, and a browser
 * cannot add an Authorization header to a cross-origin request without a CORS preflight, which
 * this server never grants), a request without a session cookie, and the agent API. Sign-up and
 * password sign-in read no cookie but start a session: a page of another origin must not sign the
 * browser in to an account of its choosing (login CSRF), so they are refused when the browser says
 * they come from elsewhere, and served when nothing says so (the SDK, scripts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@purser/core';
import { SESSION_COOKIES } from '../services/auth/session-tokens';
import { refuseEarly } from './early-refusal';
import { isOwnerSurface, ownerAuthorization, pathOf } from './owner-surfaces';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type Verdict = 'same-origin' | 'cross-origin' | 'unnamed';

/** The onRequest hook; registered after @fastify/cookie, which reads the cookies it looks at. */
export function sameOriginGuard(publicUrl: string): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined> {
  const publicOrigin = new URL(publicUrl).origin;
  return async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return undefined;
    const pathname = pathOf(request);
    if (!isOwnerSurface(pathname) || ownerAuthorization(request) !== undefined) return undefined;
    const startsSession = startsSessionAt(pathname, request);
    const cookieAuthenticates = !startsSession && (request.cookies[SESSION_COOKIES.access] !== undefined || request.cookies[SESSION_COOKIES.refresh] !== undefined);
    if (!cookieAuthenticates && !startsSession) return undefined;

    const verdict = originVerdict(request, publicOrigin);
    if (verdict === 'same-origin' || (verdict === 'unnamed' && !cookieAuthenticates)) return undefined;
    // The Referer's origin alone: its path and query are another site's business.
    const referer = header(request, 'referer');
    request.log.warn(
      { origin: header(request, 'origin'), refererOrigin: referer === undefined ? undefined : originOf(referer), secFetchSite: header(request, 'sec-fetch-site'), route: pathname },
      'cross-origin write refused',
    );
    const why = verdict === 'cross-origin' ? 'comes from another origin' : 'does not say where it comes from (no Origin or Referer header)';
    return refuseEarly(
      request,
      reply,
      new AppError(
        'CROSS_ORIGIN_REQUEST',
        `Refused: this request ${why}. Writes with the session cookie are served only from ${publicOrigin}'s own pages; other clients authenticate with Authorization: Bearer.`,
      ),
    );
  };
}

/** Sign-up and password sign-in: they read no cookie, and give the browser a session. */
function startsSessionAt(pathname: string, request: FastifyRequest): boolean {
  if (pathname === '/auth/v1/signup') return true;
  return pathname === '/auth/v1/token' && (request.query as { grant_type?: unknown } | undefined)?.grant_type === 'password';
}

function originVerdict(request: FastifyRequest, publicOrigin: string): Verdict {
  if (header(request, 'sec-fetch-site') === 'cross-site') return 'cross-origin';
  const claimed = header(request, 'origin') ?? header(request, 'referer');
  if (claimed === undefined) return 'unnamed';
  const origin = originOf(claimed);
  const ownOrigin = request.host ? originOf(`${request.protocol}://${request.host}`) : null;
  return origin !== null && (origin === publicOrigin || origin === ownOrigin) ? 'same-origin' : 'cross-origin';
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The serialized origin of a URL (scheme, host, port but the default), or null for `null` and anything unreadable. */
function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
