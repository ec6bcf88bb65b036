/**
 * Redirect URIs: which a client may register (https, or http on a loopback address for native
 * apps, RFC 8252 section 7.3; never a fragment or credentials) and whether the one an
 * authorization request names is registered. The match is exact, character for character, except
 * that a loopback http URI matches on any port: a native app listens on whatever port it got.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;

function parse(value: string): URL | null {
  return value.length <= MAX_URI_LENGTH && URL.canParse(value) ? new URL(value) : null;
}

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

/** Why `uri` cannot be registered, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  const url = parse(uri);
  if (!url) return `${JSON.stringify(uri.slice(0, 100))} is not an absolute URL`;
  if (url.hash || uri.includes('#')) return `${uri} must not have a fragment`;
  if (url.username || url.password) return `${uri} must not carry a user name or password`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  return `${uri} must be https, or http on a loopback address (127.0.0.1, [::1], localhost)`;
}

/** The URI without its port, when it is a loopback http URI; null otherwise. */
function loopbackWithoutPort(uri: string): string | null {
  const url = parse(uri);
  if (!url || url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) return null;
  url.port = '';
  return url.href;
}

/** True when `requested` is one of `registered`, exactly or as a loopback URI on another port. */
export function redirectUriRegistered(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const requestedLoopback = loopbackWithoutPort(requested);
  if (requestedLoopback === null || parse(requested)?.hash || requested.includes('#')) return false;
  return registered.some((uri) => loopbackWithoutPort(uri) === requestedLoopback);
}
