/**
 * Cross-site request forgery (http/same-origin.ts): a write the session cookie authenticates is
 * served only when it comes from the product's own origin, on tRPC and REST alike, whatever its
 * body; a refused one answers 403 CROSS_ORIGIN_REQUEST and changes nothing. Bearer calls and
 * reads are not concerned. The test app's public URL is http://127.0.0.1:3000.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

const PRODUCT = 'http://127.0.0.1:3000';
const EVIL = 'https://evil.example';

let t: TestApp;
let prisma: PrismaClient;

beforeAll(async () => {
  t = await createTestApp({ authRateLimits: { signUp: 10_000, password: 10_000, refresh: 10_000 } });
  prisma = t.deps.db.prisma;
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

interface Browser {
  owner: SignedUpOwner;
  /** The session cookies the web app holds after sign-in. */
  cookies: { purser_access: string; purser_refresh: string };
}

/** An owner signed in as the web app is (cookies), with two active agents. */
async function signedInWithAgents(): Promise<Browser> {
  const owner = await signUpTestOwner(t.app, prisma);
  const session = await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', payload: { email: owner.email, password: 'correct horse battery' } });
  expect(session.statusCode, session.body).toBe(200);
  for (const name of ['First', 'Second']) {
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: owner.headers, payload: { name } });
    expect(created.statusCode, created.body).toBe(201);
  }
  const body = session.json() as { access_token: string; refresh_token: string };
  return { owner, cookies: { purser_access: body.access_token, purser_refresh: body.refresh_token } };
}

const agentStatuses = async (owner: SignedUpOwner) =>
  (await prisma.agent.findMany({ where: { ownerId: owner.userId }, select: { status: true } })).map((agent) => agent.status);

/** The console's Pause all: a tRPC mutation with no input, bodiless unless `body` is given, as a forged fetch sends it. */
function pauseAllViaTrpc(browser: Browser, headers: Record<string, string>, body?: { payload: string; contentType: string }): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/trpc/agents.pauseAll',
    cookies: browser.cookies,
    headers: { ...headers, 'content-type': body?.contentType ?? 'application/json' },
    ...(body ? { payload: body.payload } : {}),
  });
}

function expectRefusedOverTrpc(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(403);
  expect(response.json()).toMatchObject({ error: { data: { code: 'FORBIDDEN', httpStatus: 403, appCode: 'CROSS_ORIGIN_REQUEST' } } });
}

function expectRefusedOverRest(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(403);
  expect(response.json()).toEqual({ error: { code: 'CROSS_ORIGIN_REQUEST', message: expect.stringContaining('Authorization: Bearer') } });
}

describe('a write with the session cookie from another origin', () => {
  it('is refused on the pause-all tRPC mutation, bodiless, JSON, multipart or plain text, and no agent is paused', async () => {
    const browser = await signedInWithAgents();
    const multipart = '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n';
    const bodies = [
      undefined,
      { payload: '{}', contentType: 'application/json' },
      { payload: multipart, contentType: 'multipart/form-data; boundary=x' },
      { payload: 'x', contentType: 'text/plain' },
      { payload: 'a=1', contentType: 'application/x-www-form-urlencoded' },
    ];
    for (const body of bodies) expectRefusedOverTrpc(await pauseAllViaTrpc(browser, { origin: EVIL }, body));
    expect(await agentStatuses(browser.owner)).toEqual(['active', 'active']);
  });

  it('is refused when the Referer names another origin, when Sec-Fetch-Site says cross-site, for Origin: null, and when nothing names the origin', async () => {
    const browser = await signedInWithAgents();
    expectRefusedOverTrpc(await pauseAllViaTrpc(browser, { referer: `${EVIL}/page` }));
    expectRefusedOverTrpc(await pauseAllViaTrpc(browser, { 'sec-fetch-site': 'cross-site', origin: PRODUCT }));
    expectRefusedOverTrpc(await pauseAllViaTrpc(browser, { origin: 'null' }));
    // The product's host under another scheme, or another port, is another origin.
    expectRefusedOverTrpc(await pauseAllViaTrpc(browser, { origin: 'https://127.0.0.1:3000' }));
    expectRefusedOverTrpc(await pauseAllViaTrpc(browser, { origin: 'http://127.0.0.1:3001' }));
    const unnamed = await pauseAllViaTrpc(browser, {});
    expectRefusedOverTrpc(unnamed);
    expect(unnamed.json().error.message).toContain('does not say where it comes from');
    expect(await agentStatuses(browser.owner)).toEqual(['active', 'active']);
  });

  it('is refused on REST writes: the kill switch, a top-up, and nothing moves', async () => {
    const browser = await signedInWithAgents();
    const pause = await t.app.inject({ method: 'POST', url: '/api/v1/agents/pause-all', cookies: browser.cookies, headers: { origin: EVIL } });
    expectRefusedOverRest(pause);
    const topUp = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/top-up', cookies: browser.cookies, headers: { origin: EVIL }, payload: { amount: 50 } });
    expectRefusedOverRest(topUp);
    const viaFunction = await t.app.inject({ method: 'POST', url: '/functions/v1/top-up-wallet', cookies: browser.cookies, headers: { origin: EVIL }, payload: { amount: 50 } });
    expectRefusedOverRest(viaFunction);
    // An Authorization header that holds no bearer token leaves the cookie in charge.
    const notBearer = await t.app.inject({ method: 'POST', url: '/auth/v1/logout', cookies: browser.cookies, headers: { origin: EVIL, authorization: 'Basic eDp5' } });
    expectRefusedOverRest(notBearer);

    expect(await agentStatuses(browser.owner)).toEqual(['active', 'active']);
    const wallet = await prisma.ownerWallet.findUnique({ where: { userId: browser.owner.userId }, select: { balanceUsdc: true, balanceUsdt: true } });
    expect(wallet ?? { balanceUsdc: 0n, balanceUsdt: 0n }).toEqual({ balanceUsdc: 0n, balanceUsdt: 0n });
    expect(await prisma.ownerTransaction.count({ where: { wallet: { userId: browser.owner.userId } } })).toBe(0);
  });

  it('is refused on sign-out and refresh through the cookies, and the session lives on', async () => {
    const browser = await signedInWithAgents();
    expectRefusedOverRest(await t.app.inject({ method: 'POST', url: '/auth/v1/logout', cookies: browser.cookies, headers: { origin: EVIL } }));
    expectRefusedOverRest(await t.app.inject({ method: 'POST', url: '/auth/v1/logout?scope=global', cookies: browser.cookies, headers: { origin: EVIL } }));
    const refresh = await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', cookies: browser.cookies, headers: { origin: EVIL } });
    expectRefusedOverRest(refresh);
    expect(refresh.cookies).toEqual([]);

    expect((await t.app.inject({ method: 'GET', url: '/auth/v1/user', cookies: browser.cookies })).statusCode).toBe(200);
    // The refresh token was not used up: the product's own page refreshes with it.
    const own = await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', cookies: browser.cookies, headers: { origin: PRODUCT } });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('is refused on a sign-in posted from another origin (login CSRF), which a client that names no origin may still make', async () => {
    const browser = await signedInWithAgents();
    const credentials = { email: browser.owner.email, password: 'correct horse battery' };
    const forged = await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', headers: { origin: EVIL }, payload: credentials });
    expectRefusedOverRest(forged);
    expect(forged.cookies).toEqual([]);
    // The SDK, a script: no Origin, no Referer, with or without cookies from an earlier sign-in.
    expect((await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', payload: credentials })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', cookies: browser.cookies, payload: credentials })).statusCode).toBe(200);
  });
});

describe('the same writes', () => {
  it("are served from the product's own origin: its public URL, or the origin the request was addressed to", async () => {
    const browser = await signedInWithAgents();
    const paused = await pauseAllViaTrpc(browser, { origin: PRODUCT });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(await agentStatuses(browser.owner)).toEqual(['suspended', 'suspended']);

    // Reached under another name (or through the Vite dev server, which keeps the browser's Host).
    const resumed = await t.app.inject({ method: 'POST', url: '/api/v1/agents/resume-all', cookies: browser.cookies, headers: { host: 'console.purser.test:8443', origin: 'http://console.purser.test:8443' } });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(await agentStatuses(browser.owner)).toEqual(['active', 'active']);

    // A Referer of the product's pages stands in for a missing Origin.
    expect((await pauseAllViaTrpc(browser, { referer: `${PRODUCT}/dashboard` })).statusCode).toBe(200);
    expect(await agentStatuses(browser.owner)).toEqual(['suspended', 'suspended']);
  });

  it('are served with the origin a trusted proxy forwarded, and refused with one an untrusted client claims', async () => {
    const behindProxy = await createTestApp({ trustProxy: ['127.0.0.1'] });
    try {
      const owner = await signUpTestOwner(behindProxy.app, behindProxy.deps.db.prisma);
      const cookies = { purser_access: owner.accessToken };
      const forwarded = { host: 'internal:3000', 'x-forwarded-host': 'pay.purser.test', 'x-forwarded-proto': 'https', origin: 'https://pay.purser.test' };
      const viaProxy = await behindProxy.app.inject({ method: 'POST', url: '/api/v1/agents/pause-all', cookies, headers: forwarded, remoteAddress: '127.0.0.1' });
      expect(viaProxy.statusCode, viaProxy.body).toBe(200);
      const direct = await behindProxy.app.inject({ method: 'POST', url: '/api/v1/agents/pause-all', cookies, headers: forwarded, remoteAddress: '203.0.113.9' });
      expect(direct.statusCode, direct.body).toBe(403);
    } finally {
      await behindProxy.cleanup();
    }
  });

  it('are served from any origin with a bearer access token or an owner API key: no cookie is involved', async () => {
    const browser = await signedInWithAgents();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: browser.owner.headers,
      payload: { name: 'automation', scopes: ['read', 'agents:admin'], expires_in_days: 30 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const apiKey = { authorization: `Bearer ${(created.json() as { key: string }).key}` };

    const viaKey = await t.app.inject({ method: 'POST', url: '/api/v1/agents/pause-all', cookies: browser.cookies, headers: { ...apiKey, origin: EVIL } });
    expect(viaKey.statusCode, viaKey.body).toBe(200);
    expect(await agentStatuses(browser.owner)).toEqual(['suspended', 'suspended']);
    const viaToken = await t.app.inject({
      method: 'POST',
      url: '/trpc/agents.resumeAll',
      cookies: browser.cookies,
      headers: { ...browser.owner.headers, origin: EVIL, 'content-type': 'application/json' },
    });
    expect(viaToken.statusCode, viaToken.body).toBe(200);
    expect(await agentStatuses(browser.owner)).toEqual(['active', 'active']);
  });

  it('read freely: GET and HEAD are never refused for their origin', async () => {
    const browser = await signedInWithAgents();
    const listed = await t.app.inject({ method: 'GET', url: '/trpc/agents.list', cookies: browser.cookies, headers: { origin: EVIL, 'sec-fetch-site': 'cross-site' } });
    expect(listed.statusCode, listed.body).toBe(200);
    const user = await t.app.inject({ method: 'GET', url: '/auth/v1/user', cookies: browser.cookies, headers: { origin: EVIL } });
    expect(user.statusCode).toBe(200);
  });
});
