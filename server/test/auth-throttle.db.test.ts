/**
 * The per-email back-off of password sign-in (services/auth/sign-in-throttle.ts) on a real
 * database, through POST /auth/v1/token: it holds against forged X-Forwarded-For addresses
 * whether or not the proxy is trusted, refuses even the right password while locked, never
 * spends a password verification on a locked email, resets on success, and treats an email
 * without an account exactly like one with.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { normalizeEmail } from '../src/services/auth/normalize-email';
import { signInThrottleKey } from '../src/services/auth/sign-in-throttle';
import type { TrustProxy } from '../src/http/trust-proxy';
import type * as PasswordHashing from '../src/services/auth/password-hashing';
import { signUpTestOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

// Counts the argon2 verifications, known email or not, without changing what they answer.
const verifications = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/services/auth/password-hashing', async (importOriginal) => {
  const actual = await importOriginal<typeof PasswordHashing>();
  return {
    ...actual,
    verifyPassword: async (hash: string, password: string) => {
      verifications.count += 1;
      return actual.verifyPassword(hash, password);
    },
    verifyWithoutAccount: async (password: string) => {
      verifications.count += 1;
      return actual.verifyWithoutAccount(password);
    },
  };
});

const PASSWORD = 'correct horse battery';
const WRONG = 'not the password';
const ACCOUNT_LOCKED = /^Too many failed sign-in attempts for this email\. Please try again in \d+ (second|minute)s?\.$/;

/** The throttle's clock: tests move it instead of waiting. */
let now = Date.parse('2030-01-01T00:00:00Z');
const signInThrottle = { now: () => new Date(now) };

function uniqueEmail(): string {
  return `owner-${randomUUID()}@example.test`;
}

function errorOf(response: LightMyRequestResponse): { code: string; message: string } {
  return response.json().error;
}

interface From {
  /** The X-Forwarded-For value the client writes (forged or not). */
  forwardedFor?: string;
  /** The TCP peer's address (light-my-request's default is 127.0.0.1). */
  remoteAddress?: string;
}

function signIn(t: TestApp, email: string, password: string, from: From = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=password',
    payload: { email, password },
    headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
    ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
  });
}

/** A documentation-range address per attempt, as an attacker rotating X-Forwarded-For would send. */
const forged = (i: number) => `203.0.113.${i + 1}`;

beforeEach(() => {
  verifications.count = 0;
});

describe.each<[string, TrustProxy | undefined]>([
  ['TRUST_PROXY off', undefined],
  ['TRUST_PROXY = 1 hop', 1],
])('with %s', (_label, trustProxy) => {
  let t: TestApp;

  beforeAll(async () => {
    // The per-address limits stay at their defaults: the point is what they miss.
    t = await createTestApp({ trustProxy, signInThrottle, authRateLimits: { signUp: 1_000 } });
  });

  afterAll(async () => {
    await t?.cleanup();
  });

  it('25 wrong passwords for one email from 25 forged X-Forwarded-For addresses meet a limit', async () => {
    const owner = await signUpTestOwner(t.app, t.deps.db.prisma);
    const responses: LightMyRequestResponse[] = [];
    for (let i = 0; i < 25; i++) responses.push(await signIn(t, owner.email, WRONG, { forwardedFor: forged(i) }));

    expect(responses.slice(0, 5).map((response) => response.statusCode)).toEqual([401, 401, 401, 401, 401]);
    for (const response of responses.slice(5)) {
      expect(response.statusCode).toBe(429);
      expect(errorOf(response).code).toBe('RATE_LIMITED');
      expect(response.headers['retry-after']).toBeDefined();
    }
    // The 6th is refused by the email's lock, whichever address it claims to come from.
    expect(errorOf(responses[5]!).message).toMatch(ACCOUNT_LOCKED);
    if (trustProxy) {
      // Each forged address is a new client to the per-address limit: only the email's lock holds.
      for (const response of responses.slice(5)) expect(errorOf(response).message).toMatch(ACCOUNT_LOCKED);
    }
    // Only the five counted attempts cost a password verification.
    expect(verifications.count).toBe(5);

    // Locked: even the right password, from yet another address, is refused unchecked.
    const elsewhere = { forwardedFor: '198.51.100.200', remoteAddress: '192.0.2.200' };
    const locked = await signIn(t, owner.email, PASSWORD, elsewhere);
    expect(locked.statusCode).toBe(429);
    expect(errorOf(locked)).toEqual({ code: 'RATE_LIMITED', message: 'Too many failed sign-in attempts for this email. Please try again in 1 second.' });
    expect(locked.headers['retry-after']).toBe('1');
    expect(verifications.count).toBe(5);

    // Once the lock has passed, the right password signs in and the count starts again.
    now += 1_001;
    const signedIn = await signIn(t, owner.email, PASSWORD, elsewhere);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.id).toBe(owner.userId);
    const key = signInThrottleKey(t.deps.masterKey, normalizeEmail(owner.email));
    expect(await t.deps.db.prisma.signInThrottle.findUnique({ where: { emailHash: key } })).toBeNull();
  });
});

describe('the per-email back-off', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ trustProxy: 1, signInThrottle, authRateLimits: { signUp: 1_000, password: 3 } });
  });

  afterAll(async () => {
    await t?.cleanup();
  });

  it('leaves the per-address limit in force: one address trying many emails still meets it', async () => {
    const from = { forwardedFor: '198.51.100.7' };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await signIn(t, uniqueEmail(), WRONG, from)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await signIn(t, uniqueEmail(), WRONG, from);
    expect(errorOf(refused)).toEqual({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests/) });
    // A fresh address has its own allowance.
    expect((await signIn(t, uniqueEmail(), WRONG, { forwardedFor: '198.51.100.8' })).statusCode).toBe(401);
  });

  it('starts again from zero after a successful sign-in', async () => {
    const owner = await signUpTestOwner(t.app, t.deps.db.prisma);
    let address = 0;
    const attempt = (password: string) => signIn(t, owner.email, password, { forwardedFor: `192.0.2.${++address}` });
    for (let i = 0; i < 4; i++) expect((await attempt(WRONG)).statusCode).toBe(401);
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
    // Four more wrong ones would have locked the email without the reset; now it takes five.
    for (let i = 0; i < 5; i++) expect((await attempt(WRONG)).statusCode).toBe(401);
    expect((await attempt(PASSWORD)).statusCode).toBe(429);
  });

  it('answers an email without an account exactly as one with: same statuses, bodies and waits', async () => {
    const owner = await signUpTestOwner(t.app, t.deps.db.prisma);
    const unknown = uniqueEmail();
    const run = async (email: string) => {
      const seen = [];
      for (let i = 0; i < 7; i++) {
        const response = await signIn(t, email, WRONG, { forwardedFor: `198.18.${i}.${email === unknown ? 1 : 2}` });
        seen.push({ status: response.statusCode, body: response.body, retryAfter: response.headers['retry-after'] });
      }
      return seen;
    };
    const known = await run(owner.email);
    expect(known.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(await run(unknown)).toEqual(known);
    // The unknown email has its row too, under a keyed hash: no email is stored in clear.
    const rows = await t.deps.db.prisma.signInThrottle.findMany({
      where: { emailHash: { in: [owner.email, unknown].map((email) => signInThrottleKey(t.deps.masterKey, email)) } },
    });
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.emailHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.failures).toBe(5);
    }
  });

  it('doubles the lock with each attempt after it passes, up to 15 minutes', async () => {
    const email = uniqueEmail();
    let address = 0;
    const attempt = () => signIn(t, email, WRONG, { forwardedFor: `198.19.0.${++address}` });
    for (let i = 0; i < 5; i++) await attempt();
    const waits = [];
    for (let i = 0; i < 13; i++) {
      const refused = await attempt();
      expect(refused.statusCode).toBe(429);
      const wait = Number(refused.headers['retry-after']);
      waits.push(wait);
      now += wait * 1000;
      // The lock has passed: this attempt is counted (and fails), and locks for twice as long.
      expect((await attempt()).statusCode).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900]);
    expect(errorOf(await attempt()).message).toBe('Too many failed sign-in attempts for this email. Please try again in 15 minutes.');
  });

  it('lets no more than five of twenty simultaneous guesses reach the password check', async () => {
    const owner = await signUpTestOwner(t.app, t.deps.db.prisma);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signIn(t, owner.email, WRONG, { forwardedFor: `198.18.100.${i + 1}` })),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect(verifications.count).toBe(5);
  });

  it('forgets attempts after a day without any', async () => {
    const email = uniqueEmail();
    let address = 0;
    const attempt = () => signIn(t, email, WRONG, { forwardedFor: `198.19.1.${++address}` });
    for (let i = 0; i < 4; i++) expect((await attempt()).statusCode).toBe(401);
    now += 24 * 60 * 60_000;
    // Counted from one again: four more before the fifth locks.
    for (let i = 0; i < 5; i++) expect((await attempt()).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(429);
  });
});
