import { describe, expect, it } from 'vitest';
import { AuthApiError } from '../../../shared/session/auth-api';
import { signInErrorMessage, signUpErrorMessage } from './auth-error-message';

describe('auth error messages', () => {
  it('words a refused sign-in as the spec does', () => {
    expect(signInErrorMessage(new AuthApiError(400, 'x', 'Invalid login credentials'))).toBe('Invalid email or password. Please try again.');
    expect(signInErrorMessage(new AuthApiError(401, 'UNAUTHORIZED', 'Invalid email or password. Please try again.'))).toBe(
      'Invalid email or password. Please try again.',
    );
  });

  it('words a taken email and a bad invitation code as the spec does', () => {
    expect(signUpErrorMessage(new AuthApiError(409, 'CONFLICT', 'User already registered'))).toBe(
      'This email is already registered. Please sign in instead.',
    );
    expect(signUpErrorMessage(new AuthApiError(400, 'VALIDATION_FAILED', 'Invalid or expired invitation code'))).toBe(
      'Invalid or expired invitation code',
    );
  });

  it('shows other refusals as the server words them', () => {
    expect(signInErrorMessage(new AuthApiError(429, 'RATE_LIMITED', 'Too many requests. Please try again in 1 minute.'))).toBe(
      'Too many requests. Please try again in 1 minute.',
    );
  });

  it('falls back when there is no server message', () => {
    expect(signInErrorMessage(new AuthApiError(0, undefined, 'Failed to fetch'))).toBe('Failed to sign in');
    expect(signUpErrorMessage(new AuthApiError(503, undefined, 'Service Unavailable'))).toBe('Failed to create account');
    expect(signUpErrorMessage(new Error('boom'))).toBe('Failed to create account');
  });
});
