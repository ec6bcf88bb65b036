// Who is signed in, as far as the web app knows.
// This is the seam the authentication work plugs into: the store only needs a
// `loadSession` function (the server's session query) and reacts to its answers;
// pages and the dashboard guard read `status` and re-render on every change.
import { createStore } from 'zustand';

export interface SessionUser {
  id: string;
  email: string;
  fullName?: string;
}

export interface Session {
  user: SessionUser;
}

/** 'unknown' before the first check; 'checking' while a check runs. */
export type SessionStatus = 'unknown' | 'checking' | 'signed-in' | 'signed-out';

export interface SessionState {
  status: SessionStatus;
  session: Session | null;
  /** Ask for the current session; concurrent calls share one check. */
  check: () => Promise<void>;
  /** Record a session obtained elsewhere (sign-in, sign-up, refresh) or its end. */
  setSession: (session: Session | null) => void;
}

export type LoadSession = () => Promise<Session | null>;

export function createSessionStore(loadSession: LoadSession) {
  let running: Promise<void> | null = null;

  return createStore<SessionState>()((set) => ({
    status: 'unknown',
    session: null,
    check: () => {
      running ??= (async () => {
        set({ status: 'checking' });
        try {
          const session = await loadSession();
          set({ session, status: session ? 'signed-in' : 'signed-out' });
        } catch (error) {
          // Failing to learn the session must not lock the owner on a loading screen;
          // treating it as signed out sends them to sign in again.
          console.error('Session check failed', error);
          set({ session: null, status: 'signed-out' });
        } finally {
          running = null;
        }
      })();
      return running;
    },
    setSession: (session) => set({ session, status: session ? 'signed-in' : 'signed-out' }),
  }));
}
