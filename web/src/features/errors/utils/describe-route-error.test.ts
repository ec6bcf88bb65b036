import { describe, expect, it } from 'vitest';
import { describeRouteError } from './describe-route-error';

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
