/**
 * The refresh-token reuse interval (services/auth/refresh-session.ts) on a real database, through
 * POST /auth/v1/token?grant_type=refresh_token: a token rotated moments ago (a reload or a second
 * tab racing a refresh) answers the family's current session; one rotated longer ago is a replay
 * that revokes the family; a signed-out or revoked family is never revived.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createInvitation } from '../src/services/invitations/create-invitation';
import { createTestApp, type TestApp } from './support/test-app';

/** The refresh clock: tests move it instead of waiting. */
let now = Date.now();
const clock = () => new Date(now);

const INTERVAL_MS = 10_000;

let t: TestApp;

beforeAll(async () => {
  // The default interval (10 s) with a clock the tests move.
  t = await createTestApp({ authRateLimits: { signUp: 10_000, refresh: 10_000 }, sessionRefresh: { now: clock } });
});

afterAll(async () => {
  await t?.cleanup();
});

beforeEach(() => {
  now = Date.now();
});

interface Session {
  access_token: string;
  refresh_token: string;
  user: { id: string };
}

async function newSession(on = t): Promise<Session> {
  const invitation = await createInvitation(on.deps.db.prisma, { maxUses: 1, expiresAt: new Date(Date.now() + 60_000) });
  const response = await on.app.inject({
    method: 'POST',
    url: '/auth/v1/signup',
    payload: { email: `owner-${randomUUID()}@example.test`, password: 'correct horse', data: { full_name: 'Ada Lovelace', invitation_code: invitation.code } },
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

function refresh(refreshToken: string, on = t): Promise<LightMyRequestResponse> {
  return on.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: { refresh_token: refreshToken } });
}

/** A refresh the way the web app sends it: no body, the refresh cookie only, from the product's own origin. */
function refreshWithCookie(refreshToken: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', cookies: { purser_refresh: refreshToken }, headers: { origin: 'http://127.0.0.1:3000' } });
}

async function refreshed(refreshToken: string, on = t): Promise<Session> {
  const response = await refresh(refreshToken, on);
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** Whether an authenticated endpoint accepts the access token. */
async function signedIn(accessToken: string, on = t): Promise<boolean> {
  const response = await on.app.inject({ method: 'GET', url: '/auth/v1/user', headers: { authorization: `Bearer ${accessToken}` } });
  expect([200, 401]).toContain(response.statusCode);
  return response.statusCode === 200;
}

/** The family's rows: how many, and how many could still be refreshed. */
async function familyOf(userId: string) {
  const rows = await t.deps.db.prisma.session.findMany({
    where: { userId },
    select: { familyId: true, expiresAt: true, rotatedAt: true, revokedAt: true },
  });
  expect(new Set(rows.map((row) => row.familyId)).size).toBe(1);
  const active = rows.filter((row) => !row.rotatedAt && !row.revokedAt);
  return { rows: rows.length, active: active.length, live: rows.filter((row) => !row.revokedAt).length, activeExpiresAt: active[0]?.expiresAt };
}

describe('within the reuse interval', () => {
  it('a rotated refresh token answers the session its rotation issued, and the owner stays signed in', async () => {
    const first = await newSession();
    const next = await refreshed(first.refresh_token);

    // The browser never processed that answer (the page was reloaded): it presents the old cookie.
    now += INTERVAL_MS - 1;
    const again = await refreshWithCookie(first.refresh_token);
    expect(again.statusCode).toBe(200);
    const reused = again.json();
    expect(reused.refresh_token).toBe(next.refresh_token);
    expect(again.cookies.find((cookie) => cookie.name === 'purser_refresh')?.value).toBe(next.refresh_token);
    expect(reused.user.id).toBe(first.user.id);
    expect(await signedIn(reused.access_token)).toBe(true);
    expect(await signedIn(next.access_token)).toBe(true);

    // Nothing was written: one active token, its expiry untouched, and it refreshes as usual.
    const before = await familyOf(first.user.id);
    expect(before).toMatchObject({ rows: 2, active: 1, live: 2 });
    expect(await refreshWithCookie(first.refresh_token)).toMatchObject({ statusCode: 200 });
    expect(await familyOf(first.user.id)).toEqual(before);

    const later = await refreshed(reused.refresh_token);
    expect(await signedIn(later.access_token)).toBe(true);
    expect(await familyOf(first.user.id)).toMatchObject({ rows: 3, active: 1 });
  });

  it('a token rotated twice since answers the newest token of its family', async () => {
    const first = await newSession();
    const second = await refreshed(first.refresh_token);
    now += 1_000;
    const third = await refreshed(second.refresh_token);

    now += 1_000;
    const reused = await refreshed(first.refresh_token);
    expect(reused.refresh_token).toBe(third.refresh_token);
    expect(await signedIn(reused.access_token)).toBe(true);
    expect(await familyOf(first.user.id)).toMatchObject({ rows: 3, active: 1 });
  });

  it('two refreshes with the same token at the same instant both succeed and leave one usable refresh token', async () => {
    const first = await newSession();
    const responses = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token), refreshWithCookie(first.refresh_token)]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    const sessions: Session[] = responses.map((response) => response.json());

    // Every answer carries the same token, so whichever cookie the browser keeps is the live one.
    expect(new Set(sessions.map((session) => session.refresh_token)).size).toBe(1);
    expect(sessions[0]!.refresh_token).not.toBe(first.refresh_token);
    for (const session of sessions) expect(await signedIn(session.access_token)).toBe(true);
    expect(await familyOf(first.user.id)).toMatchObject({ rows: 2, active: 1, live: 2 });

    now += INTERVAL_MS;
    const after = await refreshed(sessions[0]!.refresh_token);
    expect(await signedIn(after.access_token)).toBe(true);
    expect(await familyOf(first.user.id)).toMatchObject({ rows: 3, active: 1, live: 3 });
  });
});

describe('after the reuse interval', () => {
  it('the reuse is a replay: the family is revoked and its access tokens stop working', async () => {
    const first = await newSession();
    const next = await refreshed(first.refresh_token);

    // The interval runs from the rotation, not from the last reuse.
    now += INTERVAL_MS / 2;
    expect((await refresh(first.refresh_token)).statusCode).toBe(200);
    now += INTERVAL_MS / 2 - 1;
    expect((await refresh(first.refresh_token)).statusCode).toBe(200);
    now += 1;
    const replay = await refresh(first.refresh_token);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('UNAUTHORIZED');

    expect(await signedIn(next.access_token)).toBe(false);
    expect(await signedIn(first.access_token)).toBe(false);
    expect((await refresh(next.refresh_token)).statusCode).toBe(401);
    expect(await familyOf(first.user.id)).toMatchObject({ active: 0, live: 0 });
  });

  it('a replay that revokes the family also ends the reuse of tokens rotated moments before', async () => {
    const first = await newSession();
    const second = await refreshed(first.refresh_token);
    now += INTERVAL_MS * 2;
    const third = await refreshed(second.refresh_token);
    now += 1;
    expect((await refresh(second.refresh_token)).json().refresh_token).toBe(third.refresh_token);

    // A thief's replay of the first token, long spent.
    expect((await refresh(first.refresh_token)).statusCode).toBe(401);
    expect((await refresh(second.refresh_token)).statusCode).toBe(401);
    expect((await refresh(third.refresh_token)).statusCode).toBe(401);
    expect(await signedIn(third.access_token)).toBe(false);
  });

  it('follows the configured interval', async () => {
    const longer = await createTestApp({ authRateLimits: { signUp: 10_000, refresh: 10_000 }, sessionRefresh: { reuseIntervalMs: 30_000, now: clock } });
    const strict = await createTestApp({ authRateLimits: { signUp: 10_000, refresh: 10_000 }, sessionRefresh: { reuseIntervalMs: 0, now: clock } });
    try {
      const first = await newSession(longer);
      const next = await refreshed(first.refresh_token, longer);
      now += 20_000;
      expect((await refreshed(first.refresh_token, longer)).refresh_token).toBe(next.refresh_token);
      now += 10_000;
      expect((await refresh(first.refresh_token, longer)).statusCode).toBe(401);
      expect(await signedIn(next.access_token, longer)).toBe(false);

      // 0: no reuse at all, even of a token rotated this very instant.
      const other = await newSession(strict);
      const otherNext = await refreshed(other.refresh_token, strict);
      expect((await refresh(other.refresh_token, strict)).statusCode).toBe(401);
      expect(await signedIn(otherNext.access_token, strict)).toBe(false);
    } finally {
      await longer.cleanup();
      await strict.cleanup();
    }
  });
});

describe('a family that is no longer live', () => {
  it('is not revived by reusing a token within the interval once signed out', async () => {
    const first = await newSession();
    const next = await refreshed(first.refresh_token);
    expect((await refresh(first.refresh_token)).statusCode).toBe(200);

    const logout = await t.app.inject({ method: 'POST', url: '/auth/v1/logout', headers: { authorization: `Bearer ${next.access_token}` } });
    expect(logout.statusCode).toBe(204);

    now += 1;
    expect((await refresh(first.refresh_token)).statusCode).toBe(401);
    expect((await refresh(next.refresh_token)).statusCode).toBe(401);
    expect(await signedIn(next.access_token)).toBe(false);
    expect(await familyOf(first.user.id)).toMatchObject({ active: 0, live: 0 });
  });

  it('is not extended by a reuse once its current token has expired', async () => {
    const first = await newSession();
    const next = await refreshed(first.refresh_token);
    expect((await refresh(first.refresh_token)).statusCode).toBe(200);

    await t.deps.db.prisma.session.updateMany({ where: { userId: first.user.id, rotatedAt: null }, data: { expiresAt: new Date(now) } });
    now += 1;
    expect((await refresh(first.refresh_token)).statusCode).toBe(401);
    expect((await refresh(next.refresh_token)).statusCode).toBe(401);
    const family = await familyOf(first.user.id);
    expect(family).toMatchObject({ rows: 2, active: 1 });
    expect(family.activeExpiresAt?.getTime()).toBe(now - 1);
  });
});
