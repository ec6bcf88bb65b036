// Scrolling arithmetic of /docs, kept free of the DOM so it can be tested directly.

/** Sections and headings stop this far below the top of the window (spec: 96 px). */
export const DOCS_SCROLL_OFFSET_PX = 96;

/** The window scroll position that puts an element `offset` pixels below the top. */
export function scrollTopFor(elementTopInViewport: number, currentScrollY: number, offset = DOCS_SCROLL_OFFSET_PX): number {
  return Math.max(0, Math.round(elementTopInViewport + currentScrollY - offset));
}

/**
 * The section the reader is in: the last one whose top has reached the offset line (a few
 * pixels of slack absorb rounding), the first one before any has, the last one at the very
 * bottom of the page (a short last section may never reach the line).
 */
export function activeSectionId(
  sections: readonly { id: string; top: number }[],
  { offset = DOCS_SCROLL_OFFSET_PX, atBottom = false }: { offset?: number; atBottom?: boolean } = {},
): string | undefined {
  if (atBottom) return sections.at(-1)?.id;
  let active = sections[0]?.id;
  for (const section of sections) {
    if (section.top <= offset + 8) active = section.id;
  }
  return active;
}
