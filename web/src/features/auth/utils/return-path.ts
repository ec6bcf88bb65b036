// Where the auth page sends an owner after sign-in or sign-up: a guarded page that sent them
// here names itself in `?next=` (the OAuth consent page does, so an owner who signs in lands
// back on the request they were deciding). Only a path on this site is followed: anything that
// could leave it (`//host`, `/\host`, `https://...`, `javascript:`) falls back to the dashboard.

export const AFTER_SIGN_IN = '/dashboard';

/** The `/auth` URL that comes back to `path` (pathname, search and hash of this site). */
export function signInUrlReturningTo(path: string): string {
  return `/auth?${new URLSearchParams({ next: path })}`;
}

/** The page to open after sign-in: `next` when it is a path on this site, else the dashboard. */
export function returnPath(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return AFTER_SIGN_IN;
  // Control characters and backslashes anywhere could be read as another host by some parser.
  if ([...next].some((char) => char === '\\' || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return AFTER_SIGN_IN;
  const base = 'https://purser.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return AFTER_SIGN_IN;
  }
  if (url.origin !== base || url.pathname === '/auth') return AFTER_SIGN_IN;
  return `${url.pathname}${url.search}${url.hash}`;
}
