/**
 * Security headers on every response (pages, tRPC, REST, MCP, errors): one helmet
 * configuration. Its headers depend on nothing of the request, so they are worked out once, by
 * running helmet's middleware on a recording response (securityHeaderList), and app.ts sets that
 * list on every response: helmet's twelve middlewares per request were a tenth of a GET /balance's
 * JavaScript. The
 * Content-Security-Policy allows only what the web app (web/dist) and the API reference
 * (/docs/api, Scalar served from this server) load: everything from this origin, nothing from
 * a CDN.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** HSTS max-age: one year, the value browsers' preload lists expect. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function securityHeaderOptions(publicUrl: string): HelmetOptions {
  const https = publicUrl.startsWith('https:');
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // No inline script anywhere: index.html loads one module, /docs/api one file, and the
        // reference's configuration sits in an empty <script> element's data attributes.
        'script-src': ["'self'"],
        // MUI (emotion) and Scalar insert <style> elements at run time and set style
        // attributes. A nonce would need the index.html rewritten per response and handed to
        // emotion's cache, and style attributes cannot carry one; inline styles cannot run
        // code, so scripts stay strict and styles alone are let inline.
        'style-src': ["'self'", "'unsafe-inline'"],
        // The API reference draws a few icons as data: URLs.
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'"],
        // tRPC (with its server-sent events), /auth/v1 and the OpenAPI document: same origin.
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        // Over plain http (the local sandbox) the upgrade would send every request to a port
        // that speaks no TLS.
        ...(https ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Only a deployment reached over https may pin browsers to it; over http the header is
    // ignored by browsers at best and locks out a later http-only host at worst.
    hsts: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
  };
}

/**
 * The headers helmet sets with `options`, in its order, found by running its middleware once on a
 * response that records them. Every directive here is a fixed string: a directive computed per
 * request (a nonce) could not be recorded, and is refused.
 */
export function securityHeaderList(options: HelmetOptions): ReadonlyArray<readonly [string, string]> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.set(name, String(value));
      return recorder;
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
  };
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  if (directives.flat().some((value) => typeof value === 'function')) {
    throw new Error('A Content-Security-Policy directive computed per request (a nonce) cannot be worked out ahead of the requests');
  }
  let ran = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    ran = true;
  });
  if (!ran) throw new Error('helmet did not set its headers at once: they cannot be worked out ahead of the requests');
  return [...headers];
}
