// The toast for a failed sign-in or sign-up (spec section 8). Known refusals read as the spec
// words them, whatever the server's wording; other refusals (say, too many attempts) show the
// server's own message; anything without one falls back to a generic line.
import { EMAIL_TAKEN_MESSAGE, INVALID_CREDENTIALS_MESSAGE, INVALID_INVITATION_MESSAGE } from '@purser/core';
import { AuthApiError } from '../../../shared/session/auth-api';

export const SIGN_IN_FALLBACK_MESSAGE = 'Failed to sign in';
export const SIGN_UP_FALLBACK_MESSAGE = 'Failed to create account';

export function signInErrorMessage(error: unknown): string {
  const message = serverMessage(error);
  if (message === undefined) return SIGN_IN_FALLBACK_MESSAGE;
  if (message.includes('Invalid login credentials') || message === INVALID_CREDENTIALS_MESSAGE) {
    return INVALID_CREDENTIALS_MESSAGE;
  }
  return message;
}

export function signUpErrorMessage(error: unknown): string {
  const message = serverMessage(error);
  if (message === undefined) return SIGN_UP_FALLBACK_MESSAGE;
  if (message.includes('already registered')) return EMAIL_TAKEN_MESSAGE;
  if (message === INVALID_INVITATION_MESSAGE) return INVALID_INVITATION_MESSAGE;
  return message;
}

/** The server's message for a refusal (4xx); none for network failures and server faults. */
function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof AuthApiError) || error.status === 0 || error.status >= 500) return undefined;
  return error.message || undefined;
}
