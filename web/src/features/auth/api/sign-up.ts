// POST /auth/v1/signup (spec section 7): the server checks the invitation code, creates the
// owner and signs them in by setting the session cookies.
import type { SignUpBody } from '@purser/core';
import { authRequest, sessionFromUser, type AuthSessionView } from '../../../shared/session/auth-api';
import type { Session } from '../../../shared/session/session-store';

export async function signUp(body: SignUpBody): Promise<Session> {
  const view = await authRequest<AuthSessionView>('/signup', { method: 'POST', body });
  return sessionFromUser(view.user, view.expires_at);
}
