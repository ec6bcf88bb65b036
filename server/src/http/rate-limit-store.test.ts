import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Database } from '@purser/db';
import type { CounterState, RateLimitCounters } from '../services/rate-limits/rate-limit-counters';
import { chooseRateLimitStore, rateLimitStoreOptions, REDIS_KEY_PREFIX } from './rate-limit-store';

const logger = pino({ level: 'silent' });
const database = (kind: Database['kind']) => ({ kind, prisma: {} }) as unknown as Database;
const redis = { name: 'a redis client' } as unknown as Redis;

/** Counters that remember the keys they were asked about. */
function recordingCounters(): RateLimitCounters & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    hit: async (key, windowMs) => (keys.push(key), { current: 1, ttl: windowMs }),
    read: async (key) => (keys.push(key), { current: 0, ttl: 0 }),
    sweep: async () => 0,
  };
}

function call(store: FastifyRateLimitStore, method: 'incr' | 'read', key: string): Promise<CounterState> {
  return new Promise((resolve, reject) => {
    const target = store as FastifyRateLimitStore & { read: FastifyRateLimitStore['incr'] };
    target[method](key, (error, result) => (error ? reject(error) : resolve(result!)), 60_000, 10);
  });
}

describe('chooseRateLimitStore', () => {
  it('counts in Redis when REDIS_URL gave a client, whatever the database', () => {
    for (const kind of ['postgres', 'pglite'] as const) {
      expect(chooseRateLimitStore({ db: database(kind), logger, redis }), kind).toEqual({ kind: 'redis', client: redis, keyPrefix: REDIS_KEY_PREFIX });
    }
  });

  it('counts in the database when it is PostgreSQL, which several servers may share', () => {
    expect(chooseRateLimitStore({ db: database('postgres'), logger })).toMatchObject({ kind: 'database' });
  });

  it('counts in memory on the embedded PGlite, which one process owns', () => {
    expect(chooseRateLimitStore({ db: database('pglite'), logger })).toEqual({ kind: 'memory' });
  });
});

describe('rateLimitStoreOptions', () => {
  it("leaves memory to the plugin's own store", () => {
    expect(rateLimitStoreOptions(undefined, 'auth')).toEqual({});
    expect(rateLimitStoreOptions({ kind: 'memory' }, 'auth')).toEqual({});
  });

  it('hands Redis to the plugin under a namespace per limit, letting requests through while Redis cannot answer', () => {
    expect(rateLimitStoreOptions({ kind: 'redis', client: redis, keyPrefix: 'p:' }, 'agent-api')).toEqual({ redis, nameSpace: 'p:agent-api:', skipOnError: true });
    expect(rateLimitStoreOptions({ kind: 'redis', client: redis, keyPrefix: 'p:' }, 'auth').nameSpace).toBe('p:auth:');
  });

  it('counts in the database under the limit, and a route with a limit of its own under its route as well', async () => {
    const counters = recordingCounters();
    const { store: Store, skipOnError } = rateLimitStoreOptions({ kind: 'database', counters }, 'auth');
    expect(skipOnError).toBeUndefined();
    const root = new Store!({});
    const token = root.child({ routeInfo: { method: 'POST', url: '/auth/v1/token' } } as never);
    const signup = root.child({ routeInfo: { method: 'POST', url: '/auth/v1/signup' } } as never);

    expect(await call(root, 'incr', 'agent:1')).toEqual({ current: 1, ttl: 60_000 });
    await call(token, 'incr', '203.0.113.7|password');
    await call(signup, 'incr', '203.0.113.7');
    await call(token, 'read', '203.0.113.7|password');
    const other = new (rateLimitStoreOptions({ kind: 'database', counters }, 'assistant').store!)({});
    await call(other, 'incr', 'agent:1');

    expect(counters.keys).toEqual([
      'auth:agent:1',
      'auth:POST /auth/v1/token|203.0.113.7|password',
      'auth:POST /auth/v1/signup|203.0.113.7',
      'auth:POST /auth/v1/token|203.0.113.7|password',
      'assistant:agent:1',
    ]);
  });

  it("passes the database's failure on to the plugin", async () => {
    const failing: RateLimitCounters = {
      hit: async () => Promise.reject(new Error('database down')),
      read: async () => Promise.reject(new Error('database down')),
      sweep: async () => 0,
    };
    const store = new (rateLimitStoreOptions({ kind: 'database', counters: failing }, 'auth').store!)({});
    await expect(call(store, 'incr', 'k')).rejects.toThrow('database down');
    await expect(call(store, 'read', 'k')).rejects.toThrow('database down');
  });
});
