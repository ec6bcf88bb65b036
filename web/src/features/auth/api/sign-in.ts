// POST /auth/v1/token?grant_type=password (spec section 7). The server sets the session cookies;
// the answer is reduced to the session metadata the store keeps.
import type { SignInInput } from '@purser/core';
import { authRequest, sessionFromUser, type AuthSessionView } from '../../../shared/session/auth-api';
import type { Session } from '../../../shared/session/session-store';

export async function signIn(input: SignInInput): Promise<Session> {
  const view = await authRequest<AuthSessionView>('/token?grant_type=password', { method: 'POST', body: input });
  return sessionFromUser(view.user, view.expires_at);
}
