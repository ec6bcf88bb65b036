import { describe, expect, it } from 'vitest';
import { parseStoredSession, readStoredSession, SESSION_STORAGE_KEY, writeStoredSession } from './stored-session';

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

const session = { user: { id: 'u1', email: 'owner@example.com', fullName: 'Ada' }, expiresAt: 1_900_000_000 };

describe('stored session', () => {
  it('keeps the user and expiry, and nothing that looks like a token', () => {
    const storage = memoryStorage();
    writeStoredSession(storage, session);
    const raw = storage.values.get(SESSION_STORAGE_KEY)!;
    expect(JSON.parse(raw)).toEqual({ user: { id: 'u1', email: 'owner@example.com', full_name: 'Ada' }, expires_at: 1_900_000_000 });
    expect(readStoredSession(storage)).toEqual(session);
  });

  it('forgets the session on sign-out', () => {
    const storage = memoryStorage();
    writeStoredSession(storage, session);
    writeStoredSession(storage, null);
    expect(storage.values.has(SESSION_STORAGE_KEY)).toBe(false);
  });

  it('reads malformed values as no session', () => {
    expect(parseStoredSession('not json')).toBeNull();
    expect(parseStoredSession('{"user":{"id":1}}')).toBeNull();
    expect(parseStoredSession(null)).toBeNull();
  });

  it('survives storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
      removeItem: () => {
        throw new Error('blocked');
      },
    };
    expect(readStoredSession(broken)).toBeNull();
    expect(() => writeStoredSession(broken, session)).not.toThrow();
  });
});
