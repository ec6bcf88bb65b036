import { describe, expect, it } from 'vitest';
import { createMuiTheme } from './mui-theme';

describe('MUI theme defaults', () => {
  it.each(['light', 'dark'] as const)('opens every tooltip after 700 ms, and the next one at once (%s)', (mode) => {
    expect(createMuiTheme(mode).components?.MuiTooltip?.defaultProps).toEqual({ enterDelay: 700, enterNextDelay: 0, leaveDelay: 0 });
  });

  it('follows the mode it is made for', () => {
    expect(createMuiTheme('light').palette.mode).toBe('light');
    expect(createMuiTheme('dark').palette.mode).toBe('dark');
  });
});
