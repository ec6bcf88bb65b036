import { describe, expect, it } from 'vitest';
import { describeRouteError, isChunkLoadError } from './describe-route-error';

describe('describeRouteError', () => {
  it('shows the status of an error response', () => {
    // The shape react-router gives thrown responses (ErrorResponse).
    const response = { status: 404, statusText: 'Not Found', internal: true, data: null };
    expect(describeRouteError(response)).toBe('404 Not Found');
  });

  it('shows the message of a thrown error', () => {
    expect(describeRouteError(new Error('boom'))).toBe('boom');
  });

  it('shows anything else as text', () => {
    expect(describeRouteError('plain failure')).toBe('plain failure');
  });
});

describe('isChunkLoadError', () => {
  it("recognises Chromium's and Firefox's failed dynamic imports", () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x.example/assets/docs-page-1a2b.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: https://x.example/assets/a.js'))).toBe(true);
  });

  it("recognises Safari's failed module script", () => {
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
    expect(isChunkLoadError({ status: 404 })).toBe(false);
  });
});
