import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSessionSync } from './session-sync';
import { createSessionStore, type Session } from './session-store';
import { SESSION_STORAGE_KEY } from './stored-session';

const NOW = 1_900_000_000_000;
const user = { id: 'u1', email: 'owner@example.com' };

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

describe('session sync', () => {
  let listeners: Record<string, (event: unknown) => void>;

  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
    listeners = {};
    const target = { addEventListener: (type: string, listener: (event: unknown) => void) => (listeners[type] = listener), removeEventListener: () => {} };
    vi.stubGlobal('window', target);
    vi.stubGlobal('document', { ...target, visibilityState: 'visible' });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('persists the session and refreshes it a minute before it lapses', async () => {
    const storage = memoryStorage();
    const renewed: Session = { user, expiresAt: NOW / 1000 + 7200 };
    const refresh = vi.fn(async () => renewed);
    const store = createSessionStore(async () => null);
    startSessionSync(store, { storage, refresh });

    store.getState().setSession({ user, expiresAt: NOW / 1000 + 3600 }, 'SIGNED_IN');
    expect(JSON.parse(storage.values.get(SESSION_STORAGE_KEY)!)).toMatchObject({ expires_at: NOW / 1000 + 3600 });

    await vi.advanceTimersByTimeAsync(3600_000 - 60_000 - 1);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(store.getState()).toMatchObject({ session: renewed, event: 'TOKEN_REFRESHED' });
  });

  it('retries a failed refresh with back-off from 200 ms, and signs out when refused', async () => {
    const refresh = vi
      .fn<() => Promise<Session | null>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(null);
    const store = createSessionStore(async () => null);
    startSessionSync(store, { storage: memoryStorage(), refresh });

    store.getState().setSession({ user, expiresAt: NOW / 1000 + 30 }, 'SIGNED_IN');
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(199);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(400);
    expect(refresh).toHaveBeenCalledTimes(3);
    expect(store.getState()).toMatchObject({ status: 'signed-out', event: 'SIGNED_OUT' });
  });

  it('follows a sign-out in another tab', () => {
    const storage = memoryStorage();
    const store = createSessionStore(async () => null);
    startSessionSync(store, { storage, refresh: async () => null });
    store.getState().setSession({ user, expiresAt: NOW / 1000 + 3600 }, 'SIGNED_IN');

    storage.values.delete(SESSION_STORAGE_KEY);
    listeners.storage!({ key: SESSION_STORAGE_KEY });
    expect(store.getState()).toMatchObject({ status: 'signed-out', event: 'SIGNED_OUT' });
  });
});
