import { describe, expect, it } from 'vitest';
import { indexForKey } from './roving-keys';

describe('indexForKey', () => {
  it('moves on with Right and Down and back with Left and Up, wrapping at the ends', () => {
    expect(indexForKey('ArrowRight', 0, 12)).toBe(1);
    expect(indexForKey('ArrowDown', 11, 12)).toBe(0);
    expect(indexForKey('ArrowLeft', 5, 12)).toBe(4);
    expect(indexForKey('ArrowUp', 0, 12)).toBe(11);
  });

  it('jumps to the ends with Home and End', () => {
    expect(indexForKey('Home', 7, 12)).toBe(0);
    expect(indexForKey('End', 2, 12)).toBe(11);
  });

  it('ignores other keys and empty rows', () => {
    expect(indexForKey('Enter', 3, 12)).toBeNull();
    expect(indexForKey('Tab', 3, 12)).toBeNull();
    expect(indexForKey('ArrowRight', 0, 0)).toBeNull();
  });
});
