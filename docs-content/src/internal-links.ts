/**
 * Checks a link inside the content against the site's routes (spec section 2) and the anchors
 * each page has, so a renamed heading or a mistyped route fails a test instead of a reader.
 */

/** Route -> the element ids (anchors) a link may name on that page. */
export type LinkTargets = ReadonlyMap<string, ReadonlySet<string>>;

export function isInternalLink(href: string): boolean {
  return href.startsWith('/') || href.startsWith('#');
}

/**
 * Why `href`, written in the document at route `from`, does not resolve; undefined when it
 * does. External links (anything not starting with / or #) are not this function's business.
 */
export function internalLinkProblem(href: string, from: string, targets: LinkTargets): string | undefined {
  if (!isInternalLink(href)) return undefined;
  const hashAt = href.indexOf('#');
  const path = hashAt < 0 ? href : href.slice(0, hashAt);
  const anchor = hashAt < 0 ? undefined : decodeURIComponent(href.slice(hashAt + 1));
  const route = path === '' ? from : path;
  if (route !== '/' && route.endsWith('/')) return `${href}: no trailing slash on routes`;
  if (route.includes('?')) return `${href}: content links carry no query string`;
  const anchors = targets.get(route);
  if (!anchors) return `${href}: ${route} is not a route of the site`;
  if (anchor !== undefined && !anchors.has(anchor)) return `${href}: ${route} has no section "${anchor}"`;
  return undefined;
}
