// Which page a pre-rendered HTML file holds. The build marks #root with the path it rendered,
// and the browser hydrates the HTML only at that address: a server may answer a path with some
// other page's file (a preview server's fallback, an old build), and hydrating a page over
// another one's HTML would only end in React throwing it away.
export const PRERENDERED_PATH_ATTRIBUTE = 'data-prerendered-path';

/** '/blog/' and '/blog' are the same page, as they are to the router. */
export function canonicalPath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

export function isPrerenderedFor(root: Pick<Element, 'getAttribute' | 'hasChildNodes'>, pathname: string): boolean {
  const rendered = root.getAttribute(PRERENDERED_PATH_ATTRIBUTE);
  return rendered !== null && root.hasChildNodes() && canonicalPath(rendered) === canonicalPath(pathname);
}

/**
 * Set on #root once React has taken over a pre-rendered page. Until then the page shows its
 * text and its links work as plain links, but its buttons do nothing: end-to-end tests wait
 * for this mark before they press one.
 */
export const HYDRATED_ATTRIBUTE = 'data-hydrated';
