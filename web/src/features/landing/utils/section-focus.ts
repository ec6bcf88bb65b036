// Same-page links ('#flow') scroll through the router (shared/scroll); this moves keyboard
// focus along with the view, so the next Tab continues inside the section the link named.

type FocusableById = { getElementById(id: string): { focus(options?: FocusOptions): void } | null };

/** The element id a same-page link names: '#flow' and '/#flow' give 'flow'; other links give null. */
export function hashTargetId(to: string): string | null {
  const hashAt = to.indexOf('#');
  if (hashAt === -1) return null;
  const path = to.slice(0, hashAt);
  if (path !== '' && path !== '/') return null;
  const id = to.slice(hashAt + 1);
  if (id === '') return null;
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

/** Focuses the section `to` names, without scrolling: the router's scroll does that. */
export function focusHashTarget(to: string, doc: FocusableById = document): void {
  const id = hashTargetId(to);
  if (id) doc.getElementById(id)?.focus({ preventScroll: true });
}
