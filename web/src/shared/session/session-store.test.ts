import { describe, expect, it, vi } from 'vitest';
import { createSessionStore, type Session } from './session-store';

const session: Session = { user: { id: 'u1', email: 'owner@example.com' } };

describe('session store', () => {
  it('starts unknown so guards wait for the first check', () => {
    const store = createSessionStore(async () => null);
    expect(store.getState().status).toBe('unknown');
  });

  it('is checking while the session is being loaded', async () => {
    let resolve!: (value: Session | null) => void;
    const store = createSessionStore(() => new Promise((r) => (resolve = r)));
    const done = store.getState().check();
    expect(store.getState().status).toBe('checking');
    resolve(null);
    await done;
  });

  it('is signed out when there is no session', async () => {
    const store = createSessionStore(async () => null);
    await store.getState().check();
    expect(store.getState()).toMatchObject({ status: 'signed-out', session: null });
  });

  it('is signed in with the loaded session', async () => {
    const store = createSessionStore(async () => session);
    await store.getState().check();
    expect(store.getState()).toMatchObject({ status: 'signed-in', session });
  });

  it('is signed out when loading the session fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const store = createSessionStore(async () => {
      throw new Error('network down');
    });
    await store.getState().check();
    expect(store.getState().status).toBe('signed-out');
  });

  it('shares one load between concurrent checks', async () => {
    const load = vi.fn(async () => session);
    const store = createSessionStore(load);
    await Promise.all([store.getState().check(), store.getState().check()]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('follows sessions set from outside, such as a sign-out', async () => {
    const store = createSessionStore(async () => session);
    await store.getState().check();
    store.getState().setSession(null);
    expect(store.getState()).toMatchObject({ status: 'signed-out', session: null });
  });
});

describe('session events', () => {
  it('names sign-in, refresh and sign-out transitions', () => {
    const store = createSessionStore(async () => null);
    store.getState().setSession(session);
    expect(store.getState().event).toBe('SIGNED_IN');
    store.getState().setSession({ ...session, expiresAt: 2 });
    expect(store.getState().event).toBe('TOKEN_REFRESHED');
    store.getState().setSession(null);
    expect(store.getState().event).toBe('SIGNED_OUT');
  });
});
