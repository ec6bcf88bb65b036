// The assistant's round button sits fixed at the bottom right of every page. A page's last
// block ends this far above the page's bottom, so scrolled to the end, nothing stays under it.

const BUTTON_SIZE_PX = 56;
const GAP_PX = 16;

/** How far the button sits from the right and bottom edges: phones, then wider screens. */
export const ASSISTANT_BUTTON_OFFSET = { xs: 16, sm: 24 } as const;

/** Bottom padding for the end of a page: the button, its offset and a gap above it. */
export const ASSISTANT_BUTTON_CLEARANCE = {
  xs: `${ASSISTANT_BUTTON_OFFSET.xs + BUTTON_SIZE_PX + GAP_PX}px`,
  sm: `${ASSISTANT_BUTTON_OFFSET.sm + BUTTON_SIZE_PX + GAP_PX}px`,
} as const;
