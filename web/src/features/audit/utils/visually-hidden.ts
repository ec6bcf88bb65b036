// Text for screen readers only (a column's name where sighted users see an icon), kept out
// of the layout: one pixel, clipped, so it never widens a table or the page.
import type { CSSProperties } from 'react';

export const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: 0,
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
};
