/**
 * Owner sign-up, sign-in and sessions through /auth/v1 and tRPC, against a real database
 * (PostgreSQL or PGlite per PURSER_TEST_DB). The refresh-token reuse interval, concurrent
 * refreshes included, has its own suite: auth-refresh-reuse.db.test.ts.
 */
import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authRoutes } from '../src/http/auth-routes';
import { createInvitation, hashInvitationCode } from '../src/services/invitations/create-invitation';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;

/**
 * The limits are tested on their own app below; here they must not get in the way. Every app of
 * this file that counts on the shared counters uses them: a limit this high is counted in claimed
 * batches, which a lower limit on the same counter would see as hits.
 */
const UNHINDERED = { signUp: 10_000, password: 10_000, refresh: 10_000 };

/** How far the refresh clock runs ahead of the real one: replays step it past the reuse interval. */
let clockAheadMs = 0;
const sessionRefresh = { now: () => new Date(Date.now() + clockAheadMs) };

/** Past the refresh-token reuse interval (10 s): presenting a rotated token now is a replay. */
function afterReuseInterval(): void {
  clockAheadMs += 10_000;
}

beforeAll(async () => {
  t = await createTestApp({ authRateLimits: UNHINDERED, sessionRefresh });
});

afterAll(async () => {
  await t?.cleanup();
});

const PASSWORD = 'correct horse';

async function newCode(options: { maxUses?: number } = {}): Promise<string> {
  const invitation = await createInvitation(t.deps.db.prisma, {
    maxUses: options.maxUses ?? 1,
    expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
  });
  return invitation.code;
}

function uniqueEmail(): string {
  return `owner-${randomUUID()}@example.test`;
}

function signUp(app: TestApp['app'], body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/auth/v1/signup', payload: body });
}

async function signUpBody(overrides: { email?: string; password?: string; full_name?: string; invitation_code?: string } = {}) {
  return {
    email: overrides.email ?? uniqueEmail(),
    password: overrides.password ?? PASSWORD,
    data: { full_name: overrides.full_name ?? 'Ada Lovelace', invitation_code: overrides.invitation_code ?? (await newCode()) },
  };
}

function signIn(email: string, password: string, app = t.app): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', payload: { email, password } });
}

function refresh(refreshToken: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: { refresh_token: refreshToken } });
}

function getUser(headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: '/auth/v1/user', headers });
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

interface Session {
  access_token: string;
  refresh_token: string;
  user: { id: string; email: string };
}

async function newOwner(): Promise<{ email: string; session: Session }> {
  const body = await signUpBody();
  const response = await signUp(t.app, body);
  expect(response.statusCode).toBe(200);
  return { email: body.email, session: response.json() };
}

function errorOf(response: LightMyRequestResponse): { code: string; message: string } {
  return response.json().error;
}

function cookieNamed(response: LightMyRequestResponse, name: string) {
  return response.cookies.find((cookie) => cookie.name === name);
}

describe('sign-up', () => {
  it('creates the owner and their wallet and answers a session in the spec shape', async () => {
    const email = `Ada.${randomUUID()}@Example.TEST`;
    const before = Math.floor(Date.now() / 1000);
    const response = await signUp(t.app, await signUpBody({ email: `  ${email} `, full_name: '  Ada Lovelace ' }));
    expect(response.statusCode).toBe(200);
    const session = response.json();
    expect(Object.keys(session).sort()).toEqual(['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type', 'user']);
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(session.expires_at).toBeGreaterThanOrEqual(before + 3600);
    expect(session.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
    expect(session.access_token.split('.')).toHaveLength(3);
    expect(session.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.user).toEqual({
      id: expect.any(String),
      email: email.toLowerCase(),
      user_metadata: { full_name: 'Ada Lovelace' },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const wallet = await t.deps.db.prisma.ownerWallet.findUnique({ where: { userId: session.user.id } });
    expect(wallet).toMatchObject({ balanceUsdc: 0n, balanceUsdt: 0n });
  });

  it('stores the password as an argon2id hash and never returns it', async () => {
    const body = await signUpBody({ password: 'a very secret password' });
    const response = await signUp(t.app, body);
    expect(response.statusCode).toBe(200);
    const user = await t.deps.db.prisma.user.findUniqueOrThrow({ where: { email: body.email }, select: { passwordHash: true } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(response.body).not.toContain('a very secret password');
    expect(response.body).not.toContain(user.passwordHash);
    expect(response.body).not.toMatch(/password/i);
  });

  it.each([
    ['a full name shorter than 2 characters', { full_name: ' A ' }, 'Name must be at least 2 characters'],
    ['an invalid email address', { email: 'ada.example.com' }, 'Invalid email address'],
    ['a password shorter than 6 characters', { password: '12345' }, 'Password must be at least 6 characters'],
    ['a blank invitation code', { invitation_code: '  ' }, 'Invitation code is required'],
  ])('refuses %s with 400 and the rule message', async (_label, overrides, message) => {
    const response = await signUp(t.app, await signUpBody(overrides));
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({ code: 'VALIDATION_FAILED', message });
  });

  it('refuses an unknown invitation code', async () => {
    const body = await signUpBody({ invitation_code: 'PURSER-NOPE0-NOPE0-NOPE0' });
    const response = await signUp(t.app, body);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toBe('Invalid or expired invitation code');
    expect(await t.deps.db.prisma.user.count({ where: { email: body.email } })).toBe(0);
  });

  it('refuses an expired invitation code', async () => {
    const code = await newCode();
    await t.deps.db.prisma.invitationCode.update({
      where: { codeHash: hashInvitationCode(code) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const response = await signUp(t.app, await signUpBody({ invitation_code: code }));
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toBe('Invalid or expired invitation code');
  });

  it('refuses an invitation code whose uses are used up', async () => {
    const code = await newCode({ maxUses: 1 });
    expect((await signUp(t.app, await signUpBody({ invitation_code: code }))).statusCode).toBe(200);
    const response = await signUp(t.app, await signUpBody({ invitation_code: code.toLowerCase() }));
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toBe('Invalid or expired invitation code');
  });

  it('gives the last use of a code to exactly one of two concurrent sign-ups', async () => {
    const code = await newCode({ maxUses: 1 });
    const responses = await Promise.all([
      signUp(t.app, await signUpBody({ invitation_code: code })),
      signUp(t.app, await signUpBody({ invitation_code: code })),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 400]);
    const loser = responses.find((response) => response.statusCode === 400);
    expect(loser && errorOf(loser).message).toBe('Invalid or expired invitation code');
    const invitation = await t.deps.db.prisma.invitationCode.findUniqueOrThrow({
      where: { codeHash: hashInvitationCode(code) },
      select: { uses: true, _count: { select: { users: true } } },
    });
    expect(invitation).toEqual({ uses: 1, _count: { users: 1 } });
  });

  it('never hands out more uses than a code has, however many sign-ups race for it', async () => {
    const code = await newCode({ maxUses: 2 });
    const bodies = await Promise.all(Array.from({ length: 6 }, () => signUpBody({ invitation_code: code })));
    const responses = await Promise.all(bodies.map((body) => signUp(t.app, body)));
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(2);
    expect(responses.filter((response) => response.statusCode === 400)).toHaveLength(4);
    const invitation = await t.deps.db.prisma.invitationCode.findUniqueOrThrow({ where: { codeHash: hashInvitationCode(code) } });
    expect(invitation.uses).toBe(2);
  });

  it('refuses an email that is already registered, whatever its case, and keeps the invitation use', async () => {
    const { email } = await newOwner();
    const code = await newCode({ maxUses: 1 });
    const response = await signUp(t.app, await signUpBody({ email: email.toUpperCase(), invitation_code: code }));
    expect(response.statusCode).toBe(409);
    expect(errorOf(response)).toEqual({ code: 'CONFLICT', message: 'This email is already registered. Please sign in instead.' });
    // The failed sign-up rolled back, so the code still works.
    expect((await signUp(t.app, await signUpBody({ invitation_code: code }))).statusCode).toBe(200);
  });
});

describe('password sign-in', () => {
  it('answers a session for the right email and password, whatever the email case', async () => {
    const { email, session: signUpSession } = await newOwner();
    const response = await signIn(` ${email.toUpperCase()} `, PASSWORD);
    expect(response.statusCode).toBe(200);
    const session = response.json();
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600, user: { id: signUpSession.user.id, email } });
    expect(session.refresh_token).not.toBe(signUpSession.refresh_token);
  });

  it('gives a wrong password and an unknown email the same 401 answer', async () => {
    const { email } = await newOwner();
    const wrongPassword = await signIn(email, 'not the password');
    const unknownEmail = await signIn(uniqueEmail(), PASSWORD);
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(errorOf(wrongPassword)).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid email or password. Please try again.' });
    expect(unknownEmail.body).toBe(wrongPassword.body);
  });

  it('refuses an empty password with the rule message', async () => {
    const response = await signIn(uniqueEmail(), '');
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({ code: 'VALIDATION_FAILED', message: 'Password is required' });
  });

  it('refuses an invalid email with the rule message', async () => {
    const response = await signIn('nobody', PASSWORD);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({ code: 'VALIDATION_FAILED', message: 'Invalid email address' });
  });

  it('refuses an unknown grant type', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=magic', payload: {} });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).code).toBe('VALIDATION_FAILED');
  });
});

describe('session cookies', () => {
  it('are set httpOnly, SameSite=Lax, on path / by sign-in, and not Secure over http', async () => {
    const { email } = await newOwner();
    const response = await signIn(email, PASSWORD);
    const session = response.json();
    const access = cookieNamed(response, 'purser_access');
    const refreshCookie = cookieNamed(response, 'purser_refresh');
    expect(access).toMatchObject({ value: session.access_token, httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 3600 });
    expect(refreshCookie).toMatchObject({ value: session.refresh_token, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(access?.secure).toBeFalsy();
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('are Secure when the public URL is https', async () => {
    const { email } = await newOwner();
    const app = Fastify();
    await app.register(fastifyCookie);
    await app.register(authRoutes, { prefix: '/auth/v1', deps: { ...t.deps, publicUrl: 'https://purser.example' }, rateLimits: UNHINDERED });
    try {
      const response = await signIn(email, PASSWORD, app);
      expect(response.statusCode).toBe(200);
      expect(cookieNamed(response, 'purser_access')?.secure).toBe(true);
      expect(cookieNamed(response, 'purser_refresh')?.secure).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('are set by sign-up too', async () => {
    const response = await signUp(t.app, await signUpBody());
    expect(cookieNamed(response, 'purser_access')?.httpOnly).toBe(true);
    expect(cookieNamed(response, 'purser_refresh')?.httpOnly).toBe(true);
  });

  it('authenticate GET /user and refresh the session without any token in the request body', async () => {
    const { session } = await newOwner();
    const user = await t.app.inject({ method: 'GET', url: '/auth/v1/user', cookies: { purser_access: session.access_token } });
    expect(user.statusCode).toBe(200);
    expect(user.json().id).toBe(session.user.id);

    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      cookies: { purser_refresh: session.refresh_token },
      // The web app's own page (a write with the session cookie names its origin).
      headers: { origin: 'http://127.0.0.1:3000' },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(cookieNamed(refreshed, 'purser_refresh')?.value).toBe(refreshed.json().refresh_token);
    expect(refreshed.json().refresh_token).not.toBe(session.refresh_token);
  });
});

describe('GET /auth/v1/user', () => {
  it('answers the signed-in owner for a bearer access token', async () => {
    const { email, session } = await newOwner();
    const response = await getUser(bearer(session.access_token));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: session.user.id,
      email,
      user_metadata: { full_name: 'Ada Lovelace' },
      created_at: expect.any(String),
    });
  });

  it('answers 401 without a token, with a malformed one, or with one signed by another key', async () => {
    const { session } = await newOwner();
    const [header, payload] = session.access_token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    for (const headers of [{}, bearer('not-a-jwt'), bearer(forged), { authorization: `Basic ${session.access_token}` }]) {
      const response = await getUser(headers);
      expect(response.statusCode).toBe(401);
      expect(errorOf(response).code).toBe('UNAUTHORIZED');
    }
  });
});

describe('refresh', () => {
  it('rotates the refresh token within the same session family', async () => {
    const { session } = await newOwner();
    const response = await refresh(session.refresh_token);
    expect(response.statusCode).toBe(200);
    const next = response.json();
    expect(next.refresh_token).not.toBe(session.refresh_token);
    expect(next.access_token).not.toBe(session.access_token);
    expect(next.user.id).toBe(session.user.id);

    const rows = await t.deps.db.prisma.session.findMany({
      where: { userId: session.user.id },
      select: { familyId: true, rotatedAt: true, revokedAt: true },
      orderBy: { createdAt: 'asc' },
    });
    expect(rows).toHaveLength(2);
    expect(rows[0]?.familyId).toBe(rows[1]?.familyId);
    expect(rows[0]?.rotatedAt).toBeInstanceOf(Date);
    expect(rows[1]?.rotatedAt).toBeNull();
    expect((await getUser(bearer(next.access_token))).statusCode).toBe(200);
  });

  it('refuses a refresh token rotated longer ago than the reuse interval and then revokes its whole family', async () => {
    const { session } = await newOwner();
    const next = (await refresh(session.refresh_token)).json();

    afterReuseInterval();
    const replay = await refresh(session.refresh_token);
    expect(replay.statusCode).toBe(401);
    expect(errorOf(replay).code).toBe('UNAUTHORIZED');

    // The thief's replay also cost the newest tokens of that sign-in.
    expect((await refresh(next.refresh_token)).statusCode).toBe(401);
    expect((await getUser(bearer(next.access_token))).statusCode).toBe(401);
    expect((await getUser(bearer(session.access_token))).statusCode).toBe(401);
    const live = await t.deps.db.prisma.session.count({ where: { userId: session.user.id, revokedAt: null } });
    expect(live).toBe(0);
  });

  it('leaves the owner’s other sign-ins alone when one family is revoked', async () => {
    const { email, session } = await newOwner();
    const other = (await signIn(email, PASSWORD)).json();
    await refresh(session.refresh_token);
    afterReuseInterval();
    await refresh(session.refresh_token);
    expect((await getUser(bearer(session.access_token))).statusCode).toBe(401);
    expect((await getUser(bearer(other.access_token))).statusCode).toBe(200);
  });

  it('refuses an unknown refresh token and a missing one', async () => {
    expect((await refresh('x'.repeat(43))).statusCode).toBe(401);
    const missing = await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: {} });
    expect(missing.statusCode).toBe(400);
  });
});

describe('logout', () => {
  it('makes the access token and the refresh token fail and clears the cookies', async () => {
    const { session } = await newOwner();
    expect((await getUser(bearer(session.access_token))).statusCode).toBe(200);

    const response = await t.app.inject({ method: 'POST', url: '/auth/v1/logout', headers: bearer(session.access_token) });
    expect(response.statusCode).toBe(204);
    for (const name of ['purser_access', 'purser_refresh']) {
      const cleared = cookieNamed(response, name);
      expect(cleared?.value).toBe('');
      expect(cleared?.expires?.getTime()).toBeLessThan(Date.now());
    }

    expect((await getUser(bearer(session.access_token))).statusCode).toBe(401);
    expect((await refresh(session.refresh_token)).statusCode).toBe(401);
  });

  it('signs out through the cookies the web app holds', async () => {
    const { session } = await newOwner();
    const cookies = { purser_access: session.access_token, purser_refresh: session.refresh_token };
    expect((await t.app.inject({ method: 'POST', url: '/auth/v1/logout', cookies, headers: { origin: 'http://127.0.0.1:3000' } })).statusCode).toBe(204);
    expect((await getUser(bearer(session.access_token))).statusCode).toBe(401);
  });

  it('with scope=global ends every sign-in of the owner', async () => {
    const { email, session } = await newOwner();
    const other = (await signIn(email, PASSWORD)).json();
    const response = await t.app.inject({ method: 'POST', url: '/auth/v1/logout?scope=global', headers: bearer(session.access_token) });
    expect(response.statusCode).toBe(204);
    expect((await getUser(bearer(other.access_token))).statusCode).toBe(401);
    expect((await refresh(other.refresh_token)).statusCode).toBe(401);
  });
});

describe('tRPC auth.me', () => {
  it('answers the owner for a bearer token or the access cookie', async () => {
    const { session } = await newOwner();
    const viaHeader = await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: bearer(session.access_token) });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.json().result.data).toMatchObject({ id: session.user.id, user_metadata: { full_name: 'Ada Lovelace' } });
    const viaCookie = await t.app.inject({ method: 'GET', url: '/trpc/auth.me', cookies: { purser_access: session.access_token } });
    expect(viaCookie.json().result.data.id).toBe(session.user.id);
  });

  it('answers UNAUTHORIZED when signed out', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/trpc/auth.me' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.data).toMatchObject({ code: 'UNAUTHORIZED', appCode: 'UNAUTHORIZED' });
  });
});

describe('rate limits', () => {
  let limited: TestApp;

  beforeAll(async () => {
    limited = await createTestApp({ authRateLimits: { signUp: 2, password: 2, refresh: 5 } });
  });

  afterAll(async () => {
    await limited?.cleanup();
  });

  it('answer 429 RATE_LIMITED once a client exceeds the password sign-in limit', async () => {
    const attempt = () => signIn(uniqueEmail(), PASSWORD, limited.app);
    expect((await attempt()).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(401);
    const refused = await attempt();
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).code).toBe('RATE_LIMITED');
    expect(refused.headers['retry-after']).toBeDefined();
    // Another client address has its own allowance.
    const elsewhere = await limited.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: uniqueEmail(), password: PASSWORD },
      remoteAddress: '198.51.100.7',
    });
    expect(elsewhere.statusCode).toBe(401);
  });

  it('answer 429 RATE_LIMITED once a client exceeds the sign-up limit', async () => {
    const attempt = () => limited.app.inject({ method: 'POST', url: '/auth/v1/signup', payload: {}, remoteAddress: '203.0.113.9' });
    expect((await attempt()).statusCode).toBe(400);
    expect((await attempt()).statusCode).toBe(400);
    const refused = await attempt();
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toEqual({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests/) });
  });

  it('count refreshes apart from password sign-ins', async () => {
    const ip = '192.0.2.44';
    for (let i = 0; i < 2; i++) {
      await limited.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', payload: {}, remoteAddress: ip });
    }
    const refreshAttempt = await limited.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      payload: { refresh_token: 'unknown' },
      remoteAddress: ip,
    });
    expect(refreshAttempt.statusCode).toBe(401);
  });
});
