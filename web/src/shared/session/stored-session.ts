// The session as kept in browser local storage (spec section 4): only the non-secret
// metadata, the user and when the access token lapses. The tokens themselves stay in the
// httpOnly cookies /auth/v1 sets, where no script (ours or an injected one) can read them;
// copying them into local storage would undo that protection.
import type { Session } from './session-store';

export const SESSION_STORAGE_KEY = 'purser-session';

export type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

interface StoredSession {
  user: { id: string; email: string; full_name?: string };
  expires_at: number;
}

export function serializeSession(session: Session): string {
  const stored: StoredSession = {
    user: { id: session.user.id, email: session.user.email, full_name: session.user.fullName },
    expires_at: session.expiresAt ?? 0,
  };
  return JSON.stringify(stored);
}

/** A stored value back into a session; anything malformed (old or hand-edited) is none. */
export function parseStoredSession(value: string | null): Session | null {
  if (!value) return null;
  try {
    const stored = JSON.parse(value) as Partial<StoredSession> | null;
    const user = stored?.user;
    if (!user || typeof user.id !== 'string' || typeof user.email !== 'string') return null;
    const expiresAt = typeof stored.expires_at === 'number' && stored.expires_at > 0 ? stored.expires_at : undefined;
    const fullName = typeof user.full_name === 'string' ? user.full_name : undefined;
    return { user: { id: user.id, email: user.email, fullName }, expiresAt };
  } catch {
    return null;
  }
}

// Storage can throw (blocked storage, private windows, full quota): the session then lives
// for this tab only, which the cookies still allow.
export function readStoredSession(storage: SessionStorage | undefined): Session | null {
  try {
    return parseStoredSession(storage?.getItem(SESSION_STORAGE_KEY) ?? null);
  } catch {
    return null;
  }
}

export function writeStoredSession(storage: SessionStorage | undefined, session: Session | null): void {
  try {
    if (!storage) return;
    if (!session) {
      storage.removeItem(SESSION_STORAGE_KEY);
      return;
    }
    const value = serializeSession(session);
    // Rewriting an unchanged value would wake every other tab for nothing.
    if (storage.getItem(SESSION_STORAGE_KEY) !== value) storage.setItem(SESSION_STORAGE_KEY, value);
  } catch {
    // Not remembered; see readStoredSession.
  }
}
