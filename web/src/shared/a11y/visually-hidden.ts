// Text for screen readers only: out of sight, still read (the usual 'sr-only' rules), clipped to
// one pixel so it never widens a table or the page. Lengths are strings so the object means the
// same in a style attribute and in MUI's sx (where a bare number can be a theme spacing or a
// border width).
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
  border: '0',
};
