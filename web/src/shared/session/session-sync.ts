// Keeps the session store alive between page loads and across tabs:
// - persists the session metadata to local storage on every change (stored-session.ts);
// - refreshes the access token shortly before it lapses, retrying failures with exponential
//   back-off from 200 ms (spec section 9), and ends the session when the server refuses;
// - follows other tabs through the `storage` event, so a sign-in, refresh or sign-out in one
//   tab shows in all of them.
// Refreshes run under a Web Lock shared by the tabs: the server rotates refresh tokens and
// treats a spent one as stolen (revoking the whole sign-in), so two tabs must never present
// the same refresh cookie. Whoever holds the lock second finds the new metadata and adopts it.
import type { StoreApi } from 'zustand';
import type { Session, SessionState } from './session-store';
import { readStoredSession, SESSION_STORAGE_KEY, writeStoredSession, type SessionStorage } from './stored-session';

/** Refresh this long before the access token lapses. */
export const REFRESH_MARGIN_MS = 60_000;
export const REFRESH_BACKOFF_START_MS = 200;
export const REFRESH_BACKOFF_MAX_MS = 30_000;
const REFRESH_LOCK = 'purser-session-refresh';

export interface SessionSyncDeps {
  storage: SessionStorage | undefined;
  /** POST /auth/v1/token?grant_type=refresh_token: the new session, or null when refused. */
  refresh: () => Promise<Session | null>;
  now?: () => number;
}

/** Runs `task` while holding the tabs' refresh lock (or directly where Web Locks are missing). */
export function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return task();
  // request() resolves with what the callback resolves with.
  return locks.request(REFRESH_LOCK, task) as Promise<T>;
}

/**
 * Refreshes the session unless another tab already did since `known` was read, in which
 * case that tab's session (from storage) is the answer.
 */
export function refreshOnce(deps: SessionSyncDeps, known: Session | null): Promise<Session | null> {
  const now = deps.now ?? Date.now;
  return withRefreshLock(async () => {
    const stored = readStoredSession(deps.storage);
    const renewedElsewhere =
      stored?.expiresAt !== undefined &&
      stored.user.id === known?.user.id &&
      stored.expiresAt !== known.expiresAt &&
      stored.expiresAt * 1000 - REFRESH_MARGIN_MS > now();
    if (renewedElsewhere) return stored;
    return deps.refresh();
  });
}

/** Starts persistence, refresh and cross-tab sync for `store`; returns a stop function. */
export function startSessionSync(store: StoreApi<SessionState>, deps: SessionSyncDeps): () => void {
  const now = deps.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  const schedule = (delayMs: number) => {
    cancel();
    timer = setTimeout(() => void runRefresh(), Math.max(0, delayMs));
  };

  const scheduleFor = (session: Session | null) => {
    if (!session) return cancel();
    failures = 0;
    // Unknown expiry (no metadata in this browser yet): refresh now to learn it.
    schedule(session.expiresAt === undefined ? 0 : session.expiresAt * 1000 - REFRESH_MARGIN_MS - now());
  };

  const runRefresh = async () => {
    timer = undefined;
    const current = store.getState().session;
    if (!current) return;
    try {
      const renewed = await refreshOnce(deps, current);
      // The owner may have signed out while the refresh was on its way.
      if (store.getState().session?.user.id !== current.user.id) return;
      store.getState().setSession(renewed, renewed ? 'TOKEN_REFRESHED' : 'SIGNED_OUT');
    } catch (error) {
      failures += 1;
      const delay = Math.min(REFRESH_BACKOFF_START_MS * 2 ** (failures - 1), REFRESH_BACKOFF_MAX_MS);
      console.warn(`Session refresh failed; retrying in ${delay} ms`, error);
      schedule(delay);
    }
  };

  const unsubscribe = store.subscribe((state, previous) => {
    if (state.session === previous.session && state.status === previous.status) return;
    if (state.status === 'signed-in' || state.status === 'signed-out') writeStoredSession(deps.storage, state.session);
    scheduleFor(state.session);
  });

  // Another tab signed in, refreshed or signed out.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== SESSION_STORAGE_KEY && event.key !== null) return;
    const stored = readStoredSession(deps.storage);
    const current = store.getState().session;
    if (!stored) {
      if (current) store.getState().setSession(null, 'SIGNED_OUT');
      return;
    }
    if (current?.user.id === stored.user.id && current.expiresAt === stored.expiresAt) return;
    store.getState().setSession(stored);
  };

  // Timers stall in background tabs and sleeping laptops: catch up when the page is seen again.
  const onVisible = () => {
    if (document.visibilityState !== 'visible') return;
    const session = store.getState().session;
    if (session && (session.expiresAt === undefined || session.expiresAt * 1000 - REFRESH_MARGIN_MS <= now())) schedule(0);
  };

  window.addEventListener('storage', onStorage);
  document.addEventListener('visibilitychange', onVisible);
  scheduleFor(store.getState().session);

  return () => {
    cancel();
    unsubscribe();
    window.removeEventListener('storage', onStorage);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
