import { describe, expect, it } from 'vitest';
import { INTENT_CURSOR_MESSAGE } from '@purser/core';
import { decodeIntentCursor, encodeIntentCursor } from './intent-cursor';
import { escapeLike } from './list-intents';

describe('the intent list cursor', () => {
  it('round-trips the position of a page’s last intent as opaque base64url text', () => {
    const position = { createdAt: new Date('2026-11-26T21:03:14.123Z'), id: '01937a4e-8f2b-7c3d-9e4f-0a1b2c3d4e5f' };
    const cursor = encodeIntentCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(position.id);
    expect(decodeIntentCursor(cursor)).toEqual(position);
  });

  it.each([
    ['an intent id', '01937a4e-8f2b-7c3d-9e4f-0a1b2c3d4e5f'],
    ['text that is not base64url', 'abc+/='],
    ['a position without an id', Buffer.from('2026-11-26T21:03:14.123Z|').toString('base64url')],
    ['a position with a date that does not exist', Buffer.from('2026-02-31T00:00:00.000Z|01937a4e-8f2b-7c3d-9e4f-0a1b2c3d4e5f').toString('base64url')],
    ['a position with an extra part', Buffer.from('2026-11-26T21:03:14.123Z|01937a4e-8f2b-7c3d-9e4f-0a1b2c3d4e5f|x').toString('base64url')],
  ])('refuses %s with VALIDATION_FAILED', (_what, cursor) => {
    expect(() => decodeIntentCursor(cursor)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', message: INTENT_CURSOR_MESSAGE }));
  });
});

describe('the search text', () => {
  it('matches LIKE wildcards and the escape character literally', () => {
    expect(escapeLike('100% off_now \\o/')).toBe('100\\% off\\_now \\\\o/');
  });
});
