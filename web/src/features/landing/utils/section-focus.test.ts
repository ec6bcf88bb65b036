import { describe, expect, it, vi } from 'vitest';
import { focusHashTarget, hashTargetId } from './section-focus';

describe('hashTargetId', () => {
  it('reads the id a same-page link names', () => {
    expect(hashTargetId('#flow')).toBe('flow');
    expect(hashTargetId('/#start-building')).toBe('start-building');
    expect(hashTargetId('#caf%C3%A9')).toBe('café');
  });

  it('gives null for links to other pages and for an empty hash', () => {
    expect(hashTargetId('/blog')).toBeNull();
    expect(hashTargetId('/docs#x402')).toBeNull();
    expect(hashTargetId('#')).toBeNull();
  });

  it('keeps a hash that is not valid percent-encoding as it is', () => {
    expect(hashTargetId('#100%')).toBe('100%');
  });
});

describe('focusHashTarget', () => {
  it('focuses the named element without scrolling', () => {
    const focus = vi.fn();
    const getElementById = vi.fn((id: string) => (id === 'flow' ? { focus } : null));
    focusHashTarget('#flow', { getElementById });
    expect(getElementById).toHaveBeenCalledWith('flow');
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
  });

  it('does nothing for another page or a missing element', () => {
    const getElementById = vi.fn(() => null);
    focusHashTarget('/blog', { getElementById });
    expect(getElementById).not.toHaveBeenCalled();
    expect(() => focusHashTarget('#nowhere', { getElementById })).not.toThrow();
  });
});
