// Arrow-key movement within a row of buttons (the protocol chips): Left/Up go back,
// Right/Down go on, both wrapping; Home and End jump to the ends.

/** The index a key moves focus to, or null when the key does not move it. */
export function indexForKey(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (current + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
