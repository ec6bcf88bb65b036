// The one session store of the running app. The credential is the httpOnly session cookie
// pair /auth/v1 sets (JavaScript never holds a token); the store learns who is signed in from
// /auth/v1/user, refreshing the cookies once when the access token has lapsed.
import { useStore } from 'zustand';
import { createSessionStore, type Session, type SessionState } from './session-store';

interface AuthUser {
  id: string;
  email: string;
  user_metadata?: { full_name?: string };
}

async function currentUser(): Promise<Response> {
  return fetch('/auth/v1/user', { credentials: 'same-origin', headers: { accept: 'application/json' } });
}

async function loadSession(): Promise<Session | null> {
  let response = await currentUser();
  if (response.status === 401) {
    const refreshed = await fetch('/auth/v1/token?grant_type=refresh_token', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    if (!refreshed.ok) return null;
    response = await currentUser();
  }
  if (response.status === 401) return null;
  if (!response.ok) throw new Error(`/auth/v1/user answered ${response.status}`);
  const user = (await response.json()) as AuthUser;
  return { user: { id: user.id, email: user.email, fullName: user.user_metadata?.full_name } };
}

export const sessionStore = createSessionStore(loadSession);

export function useSessionStore<T>(selector: (state: SessionState) => T): T {
  return useStore(sessionStore, selector);
}
