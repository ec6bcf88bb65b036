// Where a markdown link may take the reader. The content is ours, but the renderer treats it as
// untrusted anyway: only same-site paths, anchors, web and mail addresses become links.

export type LinkTarget =
  /** A route of this app (`/docs#x402`): followed by the router, without a page load. */
  | { kind: 'route'; to: string }
  /** An anchor on the current page (`#kya-tiers`). */
  | { kind: 'anchor'; href: string }
  /** Another site (`https://...`), opened in a new tab, or a `mailto:` address. */
  | { kind: 'external'; href: string; newTab: boolean }
  /** Anything else (`javascript:`, `data:`, relative paths): shown as plain text. */
  | { kind: 'none' };

export function classifyLink(href: string): LinkTarget {
  const trimmed = href.trim();
  // '//host/path' is protocol-relative: another site, not a route.
  if (trimmed.startsWith('/') && !trimmed.startsWith('//')) return { kind: 'route', to: trimmed };
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
