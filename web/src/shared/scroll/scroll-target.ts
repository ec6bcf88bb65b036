// Which element a URL hash points at. Kept free of the DOM so it can be tested directly.

/** The element id named by a location hash ('#start-building' -> 'start-building'), or null. */
export function elementIdFromHash(hash: string): string | null {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (raw === '') return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    // A malformed escape ('#%E0') is still a usable, if odd, id.
    return raw;
  }
}

/** The element to scroll to after a navigation; null means "scroll to the top". */
export function findScrollTarget<T>(hash: string, getElementById: (id: string) => T | null): T | null {
  const id = elementIdFromHash(hash);
  return id === null ? null : getElementById(id);
}
