/**
 * How the agent API waits for a payment's outcome: with the event bus it reads the intent
 * again when the database announces a change to it, instead of polling every 20 ms, and a
 * slow backstop read still catches what no announcement covers. Against a real database
 * (PURSER_TEST_DB): PostgreSQL's LISTEN/NOTIFY, or PGlite's in-process notifications.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { IntentView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { awaitIntent } from '../src/services/intents/await-intent';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { insertIntentRow } from './support/intent-rows';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let agentId: string;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma, 'Waiting Owner');
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: owner.headers, payload: { name: 'Waiting agent' } });
  expect(created.statusCode, created.body).toBe(201);
  agentId = (created.json() as { agent: { id: string } }).agent.id;
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

function createIntentRow(): Promise<string> {
  return insertIntentRow(prisma, { ownerId: owner.userId, agentId, createdBy: 'agent' });
}

const BACKSTOP_MS = 250;

it('reads the intent again when its change is announced, a handful of reads where polling would make dozens', async () => {
  const intentId = await createIntentRow();
  let reads = 0;
  const started = Date.now();
  const waiting = awaitIntent(
    prisma,
    owner.userId,
    intentId,
    (intent: IntentView) => {
      reads += 1;
      return intent.status === 'settled';
    },
    60_000,
    { events: t.deps.events },
  );
  await new Promise((resolve) => setTimeout(resolve, 600));
  await prisma.paymentIntent.update({ where: { id: intentId }, data: { status: 'settled' } });
  const { intent, reached } = await waiting;

  expect(reached).toBe(true);
  expect(intent.status).toBe('settled');
  // The first read, the re-read the subscription's 'sync' asks for, one per backstop tick,
  // and the read the announcement triggers. Polling every 20 ms would have read ~30 times.
  const backstopTicks = Math.ceil((Date.now() - started) / BACKSTOP_MS);
  expect(reads).toBeLessThanOrEqual(backstopTicks + 3);
  expect(t.deps.events.subscriptionCount()).toBe(0);
});

it('ignores announcements about other intents of the same owner', async () => {
  const intentId = await createIntentRow();
  const other = await createIntentRow();
  const seen: string[] = [];
  const waiting = awaitIntent(
    prisma,
    owner.userId,
    intentId,
    (intent: IntentView) => {
      seen.push(intent.status);
      return intent.status === 'pending_approval';
    },
    60_000,
    { events: t.deps.events },
  );
  await prisma.paymentIntent.update({ where: { id: other }, data: { status: 'pending_approval' } });
  await prisma.paymentIntent.update({ where: { id: intentId }, data: { status: 'pending_approval' } });
  const { intent, reached } = await waiting;
  expect(reached).toBe(true);
  expect(intent.id).toBe(intentId);
  expect(seen.at(-1)).toBe('pending_approval');
});

it('still notices, by its backstop read, a condition that no announcement covers', async () => {
  const intentId = await createIntentRow();
  let released = false;
  const waiting = awaitIntent(prisma, owner.userId, intentId, () => released, 60_000, { events: t.deps.events });
  await new Promise((resolve) => setTimeout(resolve, 100));
  released = true;
  const { reached } = await waiting;
  expect(reached).toBe(true);
});

it('answers with the intent as it stands when the time is up, and leaves no subscription behind', async () => {
  const intentId = await createIntentRow();
  const { intent, reached } = await awaitIntent(prisma, owner.userId, intentId, () => false, 300, { events: t.deps.events });
  expect(reached).toBe(false);
  expect(intent.status).toBe('created');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(t.deps.events.subscriptionCount()).toBe(0);
});
