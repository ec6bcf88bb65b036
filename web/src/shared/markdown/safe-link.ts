// Where a markdown link may take the reader. The content is ours, but the renderer treats it as
// untrusted anyway: only same-site paths, anchors, web and mail addresses become links.

export type LinkTarget =
  /** A route of this app (`/docs#x402`): followed by the router, without a page load. */
  | { kind: 'route'; to: string }
  /**
   * A path the server answers itself (`/docs/api`, `/api/v1/openapi.json`, a file such as
   * `/security-whitepaper.pdf`): a plain link the browser loads, since the app's router would
   * show its 404 page for it.
   */
  | { kind: 'server'; href: string }
  /** An anchor on the current page (`#kya-tiers`). */
  | { kind: 'anchor'; href: string }
  /** Another site (`https://...`), opened in a new tab, or a `mailto:` address. */
  | { kind: 'external'; href: string; newTab: boolean }
  /** Anything else (`javascript:`, `data:`, relative paths): shown as plain text. */
  | { kind: 'none' };

/**
 * Paths the server answers before the app's index.html: the API reference, and the prefixes
 * server/src/app.ts keeps from the web app (API_PREFIXES). Each covers itself and what is under it.
 */
const SERVER_PATHS = ['/docs/api', '/api', '/trpc', '/functions', '/auth/v1', '/healthz', '/1.0', '/.well-known', '/sandbox'] as const;

/** A last path segment with a file extension names a static file, never a route of the app. */
const FILE_NAME = /\.[a-z0-9]{1,8}$/i;

/**
 * True for a same-site path (`/docs/api#tag/agents`, `/api/v1/openapi.json`) that the server
 * serves, so a link to it must load it from the server instead of going through the router.
 */
export function isServerPath(href: string): boolean {
  if (!href.startsWith('/') || href.startsWith('//')) return false;
  const path = href.split(/[?#]/, 1)[0]!;
  if (SERVER_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return true;
  return FILE_NAME.test(path.slice(path.lastIndexOf('/') + 1));
}

export function classifyLink(href: string): LinkTarget {
  const trimmed = href.trim();
  // '//host/path' is protocol-relative: another site, not a route.
  if (trimmed.startsWith('/') && !trimmed.startsWith('//')) {
    return isServerPath(trimmed) ? { kind: 'server', href: trimmed } : { kind: 'route', to: trimmed };
  }
  if (trimmed.startsWith('#') && trimmed.length > 1) return { kind: 'anchor', href: trimmed };
  if (/^https?:\/\//i.test(trimmed)) return { kind: 'external', href: trimmed, newTab: true };
  if (/^mailto:[^\s]+@[^\s]+$/i.test(trimmed)) return { kind: 'external', href: trimmed, newTab: false };
  return { kind: 'none' };
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  rarr: '→',
  larr: '←',
};

/**
 * marked's lexer leaves named character references in text as written ('&amp;'); React prints
 * text literally, so they are decoded here. Unknown names stay as they are.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&([a-z]+);/gi, (whole, name: string) => NAMED_ENTITIES[name.toLowerCase()] ?? whole);
}
