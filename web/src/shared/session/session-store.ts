// Who is signed in, as far as the web app knows.
// The store only needs a `loadSession` function (the server's session query) and reacts to its
// answers; pages and the dashboard guard read `status` and re-render on every change.
// `event` names the last transition the way the spec's session events do, so listeners
// (persistence, the refresh timer, other tabs) can tell a sign-in from a token refresh.
import { createStore } from 'zustand';

export interface SessionUser {
  id: string;
  email: string;
  fullName?: string;
}

export interface Session {
  user: SessionUser;
  /** When the access token lapses, in seconds since the epoch; unknown until the server says. */
  expiresAt?: number;
}

/** 'unknown' before the first check; 'checking' while a check runs. */
export type SessionStatus = 'unknown' | 'checking' | 'signed-in' | 'signed-out';

export type SessionEvent = 'INITIAL_SESSION' | 'SIGNED_IN' | 'SIGNED_OUT' | 'TOKEN_REFRESHED';

export interface SessionState {
  status: SessionStatus;
  session: Session | null;
  /** The last transition; null before the first one. */
  event: SessionEvent | null;
  /** Ask for the current session; concurrent calls share one check. */
  check: () => Promise<void>;
  /**
   * Record a session obtained elsewhere (sign-in, sign-up, refresh, another tab) or its end.
   * Without an event, one is inferred: null is a sign-out, the same user again a refresh.
   */
  setSession: (session: Session | null, event?: SessionEvent) => void;
}

export type LoadSession = () => Promise<Session | null>;

export function createSessionStore(loadSession: LoadSession) {
  let running: Promise<void> | null = null;

  return createStore<SessionState>()((set, get) => ({
    status: 'unknown',
    session: null,
    event: null,
    check: () => {
      running ??= (async () => {
        set({ status: 'checking' });
        try {
          const session = await loadSession();
          set({ session, status: session ? 'signed-in' : 'signed-out', event: 'INITIAL_SESSION' });
        } catch (error) {
          // Failing to learn the session must not lock the owner on a loading screen;
          // treating it as signed out sends them to sign in again.
          console.error('Session check failed', error);
          set({ session: null, status: 'signed-out', event: 'INITIAL_SESSION' });
        } finally {
          running = null;
        }
      })();
      return running;
    },
    setSession: (session, event) =>
      set({
        session,
        status: session ? 'signed-in' : 'signed-out',
        event: event ?? inferEvent(get().session, session),
      }),
  }));
}

function inferEvent(previous: Session | null, next: Session | null): SessionEvent {
  if (!next) return 'SIGNED_OUT';
  return previous?.user.id === next.user.id ? 'TOKEN_REFRESHED' : 'SIGNED_IN';
}
