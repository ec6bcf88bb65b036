// The one session store of the running app, bound to /auth/v1, local storage and the other
// tabs. The credential is the httpOnly session cookie pair /auth/v1 sets (JavaScript never
// keeps a token); the store learns who is signed in from /auth/v1/user, refreshing the cookies
// once when the access token has lapsed.
import { useStore } from 'zustand';
import { fetchCurrentUser, requestRefresh, requestSignOut, sessionFromUser } from './auth-api';
import { startSessionSync, refreshOnce, type SessionSyncDeps } from './session-sync';
import { createSessionStore, type Session, type SessionState } from './session-store';
import { readStoredSession, type SessionStorage } from './stored-session';

function browserStorage(): SessionStorage | undefined {
  // Merely reading window.localStorage throws when the browser blocks storage.
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

const syncDeps: SessionSyncDeps = { storage: browserStorage(), refresh: requestRefresh };

async function loadSession(): Promise<Session | null> {
  const stored = readStoredSession(syncDeps.storage);
  const user = await fetchCurrentUser();
  // No access cookie (it lapsed with the token): the refresh cookie may still be good.
  if (!user) return refreshOnce(syncDeps, stored);
  // The expiry is only known from the stored metadata of this same owner; without it the
  // sync refreshes at once to learn it.
  return sessionFromUser(user, stored?.user.id === user.id ? stored.expiresAt : undefined);
}

export const sessionStore = createSessionStore(loadSession);
// The build also imports this file in Node, to pre-render the public pages: no tabs to follow there.
if (typeof window !== 'undefined') startSessionSync(sessionStore, syncDeps);

export function useSessionStore<T>(selector: (state: SessionState) => T): T {
  return useStore(sessionStore, selector);
}

/**
 * Ends the session: every tab shows signed out at once (the guard then sends the owner to
 * /auth), and the server revokes the session and clears the cookies. Local state goes first:
 * the dashboards it unmounts hold server-sent-event streams, and with a few tabs open those
 * use up the browser's connections to this origin, which would queue the sign-out behind
 * them indefinitely. A failed request is logged; the owner is never left signed in on screen.
 */
export async function signOut(): Promise<void> {
  sessionStore.getState().setSession(null, 'SIGNED_OUT');
  try {
    await requestSignOut();
  } catch (error) {
    console.error('Sign-out request failed', error);
  }
}
