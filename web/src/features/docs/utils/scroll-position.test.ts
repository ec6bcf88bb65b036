import { describe, expect, it } from 'vitest';
import { activeSectionId, DOCS_SCROLL_OFFSET_PX, scrollTopFor } from './scroll-position';

describe('scrollTopFor', () => {
  it('puts the element 96 px below the top of the window', () => {
    expect(DOCS_SCROLL_OFFSET_PX).toBe(96);
    // An element 1,000 px down the window, with the page already scrolled by 500 px.
    expect(scrollTopFor(1_000, 500)).toBe(1_404);
  });

  it('never asks for a position above the top of the page', () => {
    expect(scrollTopFor(20, 0)).toBe(0);
  });
});

describe('activeSectionId', () => {
  const sections = (tops: number[]) => tops.map((top, index) => ({ id: `s${index}`, top }));

  it('is the first section before any reaches the offset line', () => {
    expect(activeSectionId(sections([300, 1_200, 2_400]))).toBe('s0');
  });

  it('is the last section whose top has passed the offset line', () => {
    expect(activeSectionId(sections([-900, 96, 800]))).toBe('s1');
    expect(activeSectionId(sections([-2_000, -700, 40]))).toBe('s2');
  });

  it('is the last section at the very bottom of the page', () => {
    expect(activeSectionId(sections([-2_000, -700, 400]), { atBottom: true })).toBe('s2');
  });

  it('is undefined without sections', () => {
    expect(activeSectionId([])).toBeUndefined();
  });
});
