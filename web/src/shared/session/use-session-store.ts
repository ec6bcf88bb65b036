// The one session store of the running app.
import { useStore } from 'zustand';
import { createSessionStore, type Session, type SessionState } from './session-store';

// Placeholder until the server's auth procedures exist: nobody is signed in.
// Replace with a call to the session query (tRPC client) when they land.
async function loadSession(): Promise<Session | null> {
  return null;
}

export const sessionStore = createSessionStore(loadSession);

export function useSessionStore<T>(selector: (state: SessionState) => T): T {
  return useStore(sessionStore, selector);
}
