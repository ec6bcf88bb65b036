/**
 * Security headers on every response (pages, tRPC, REST, MCP, errors): one helmet
 * configuration, whose middleware app.ts builds once and runs on every request. The
 * Content-Security-Policy allows only what the web app (web/dist) and the API reference
 * (/docs/api, Scalar served from this server) load: everything from this origin, nothing from
 * a CDN.
 */
import type { HelmetOptions } from 'helmet';

/** HSTS max-age: one year, the value browsers' preload lists expect. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function securityHeaders(publicUrl: string): HelmetOptions {
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
