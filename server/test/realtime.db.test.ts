/**
 * Live updates: tRPC subscriptions over real HTTP server-sent events, fed by the database's
 * change notifications (PostgreSQL LISTEN/NOTIFY or PGlite in-process), against a real
 * database (PURSER_TEST_DB).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_ACCOUNT_IDS, userPublicSelect, type PrismaClient } from '@purser/db';
import { testDatabaseKind } from '@purser/db/testing';
import { issueSession } from '../src/services/auth/issue-session';
import { createEventBus, type BusMessage, type RealtimeTopic } from '../src/services/realtime/event-bus';
import { subscribeSse } from './support/sse-subscription';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let baseUrl: string;
let prisma: PrismaClient;

beforeAll(async () => {
  // Open streams re-check their credentials every 100 ms here (2 s in production).
  t = await createTestApp({ realtimeAuthCheckMs: 100 });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  prisma = t.deps.db.prisma;
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

// ---------------------------------------------------------------- owners and money

type Owner = { userId: string; walletId: string; accountId: string; token: string };

async function createOwner(app: TestApp = t): Promise<Owner> {
  const db = app.deps.db.prisma;
  const user = await db.user.create({
    data: { email: `${randomUUID()}@example.test`, passwordHash: 'not-a-real-hash', fullName: 'Realtime Owner' },
    select: userPublicSelect,
  });
  const wallet = await db.ownerWallet.create({ data: { userId: user.id }, select: { id: true } });
  const account = await db.ledgerAccount.create({
    data: { kind: 'owner', currency: 'USDC', ownerWalletId: wallet.id },
    select: { id: true },
  });
  const session = await issueSession(app.deps, db, user);
  return { userId: user.id, walletId: wallet.id, accountId: account.id, token: session.access_token };
}

/** A balanced deposit from the outside world; `balanced: false` is refused at commit. */
function deposit(owner: Owner, amount: bigint, options: { balanced?: boolean; db?: PrismaClient } = {}) {
  const debit = options.balanced === false ? amount * 2n : amount;
  return (options.db ?? prisma).ledgerTransaction.create({
    data: {
      type: 'deposit',
      entries: {
        create: [
          { accountId: EXTERNAL_ACCOUNT_IDS.USDC, amount: -debit, currency: 'USDC' },
          { accountId: owner.accountId, amount, currency: 'USDC' },
        ],
      },
    },
    select: { id: true },
  });
}

function createAgent(ownerId: string, db: PrismaClient = prisma) {
  const id = randomUUID();
  return db.agent.create({ data: { id, ownerId, name: 'Realtime agent', did: `did:agnic:${id}` }, select: { id: true } });
}

// ---------------------------------------------------------------- server-sent events

/** One realtime subscription of this suite's app (or `url`'s); see subscribeSse. */
function subscribe(procedure: string, options: { token?: string; input?: unknown; url?: string } = {}) {
  return subscribeSse(options.url ?? baseUrl, `realtime.${procedure}`, options);
}

type Stream = Awaited<ReturnType<typeof subscribe>>;

/** Subscribes and waits for 'sync': from then on every committed change is delivered. */
async function live(procedure: string, owner: Owner, input?: unknown): Promise<Stream> {
  const stream = await subscribe(procedure, { token: owner.token, input });
  expect(await stream.message()).toEqual({ type: 'sync' });
  return stream;
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// ---------------------------------------------------------------- the subscriptions

describe('realtime subscriptions over server-sent events', () => {
  it('refuse a signed-out caller with UNAUTHORIZED', async () => {
    const stream = await subscribe('walletChanges');
    const message = (await stream.message()) as { 'serialized-error': { data: { code: string } } };
    expect(message['serialized-error'].data.code).toBe('UNAUTHORIZED');
    stream.close();
  });

  it("deliver a committed balance change of an owner's wallet to that owner and not to another owner", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const aStream = await live('walletChanges', a);
    const bStream = await live('walletChanges', b);

    await expect(deposit(a, 1_000_000n, { balanced: false })).rejects.toThrow(/does not balance/);
    await deposit(a, 5_000_000n);
    expect(await aStream.message()).toEqual({ type: 'changed', walletId: a.walletId });

    // B's first event is B's own deposit: A's change never reached B's stream.
    await deposit(b, 2_000_000n);
    expect(await bStream.message()).toEqual({ type: 'changed', walletId: b.walletId });
    aStream.close();
    bStream.close();
  });

  it("carry the wallet, agent and transaction changes the dashboard shows on one stream, for their owner only", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const aStream = await live('dashboardChanges', a);
    const bStream = await live('dashboardChanges', b);

    await deposit(a, 1_000_000n);
    expect(await aStream.message()).toEqual({ type: 'changed', what: 'wallet' });
    await prisma.ownerTransaction.create({ data: { walletId: a.walletId, type: 'deposit', amount: 1_000_000n, currency: 'USDC' }, select: { id: true } });
    expect(await aStream.message()).toEqual({ type: 'changed', what: 'transactions' });
    await createAgent(a.userId);
    expect(await aStream.message()).toEqual({ type: 'changed', what: 'agents' });

    // B's first message is B's own change: none of A's reached B's stream.
    await deposit(b, 2_000_000n);
    expect(await bStream.message()).toEqual({ type: 'changed', what: 'wallet' });
    aStream.close();
    bStream.close();
  });

  it("deliver payment intent creation and status changes to the owner's intent subscription only", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const aStream = await live('intentChanges', a);
    const bStream = await live('intentChanges', b);
    const agent = await createAgent(a.userId);

    const intentId = randomUUID();
    await prisma.paymentIntent.create({
      data: {
        id: intentId,
        ownerId: a.userId,
        agentId: agent.id,
        createdBy: 'owner',
        amount: 1_000_000n,
        currency: 'USDC',
        workflowId: `payment-${intentId}`,
        idempotencyKey: `auto:${intentId}`,
        requestHash: 'test',
      },
    });
    expect(await aStream.message()).toEqual({ type: 'changed', intentId, status: 'created' });
    await prisma.paymentIntent.update({ where: { id: intentId }, data: { status: 'pending_approval' } });
    expect(await aStream.message()).toEqual({ type: 'changed', intentId, status: 'pending_approval' });
    // Its rail operation (an x402 payment's signed header, then its redemption) announces it too.
    await prisma.railOperation.create({ data: { paymentIntentId: intentId, rail: 'x402_base', reference: `nonce-${intentId}` } });
    expect(await aStream.message()).toEqual({ type: 'changed', intentId, status: 'pending_approval' });
    await prisma.railOperation.update({ where: { paymentIntentId: intentId }, data: { status: 'settled' } });
    expect(await aStream.message()).toEqual({ type: 'changed', intentId, status: 'pending_approval' });

    // B hears only its own: its first message is its own agent's intent.
    const bAgent = await createAgent(b.userId);
    const bIntent = randomUUID();
    await prisma.paymentIntent.create({
      data: {
        id: bIntent,
        ownerId: b.userId,
        agentId: bAgent.id,
        createdBy: 'owner',
        amount: 1_000_000n,
        currency: 'USDC',
        workflowId: `payment-${bIntent}`,
        idempotencyKey: `auto:${bIntent}`,
        requestHash: 'test',
      },
    });
    expect(await bStream.message()).toEqual({ type: 'changed', intentId: bIntent, status: 'created' });
    aStream.close();
    bStream.close();
  });

  it("carry the console's intent, agent and budget alert changes on one stream, for their owner only", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const aStream = await live('consoleChanges', a);
    const bStream = await live('consoleChanges', b);

    const agent = await createAgent(a.userId);
    expect(await aStream.message()).toEqual({ type: 'agent', agentId: agent.id });
    const intentId = randomUUID();
    await prisma.paymentIntent.create({
      data: {
        id: intentId,
        ownerId: a.userId,
        agentId: agent.id,
        createdBy: 'agent',
        amount: 1_000_000n,
        currency: 'USDC',
        workflowId: `payment-${intentId}`,
        idempotencyKey: `auto:${intentId}`,
        requestHash: 'test',
      },
    });
    expect(await aStream.message()).toEqual({ type: 'intent', intentId, status: 'created' });
    await prisma.paymentIntent.update({ where: { id: intentId }, data: { status: 'pending_approval' } });
    expect(await aStream.message()).toEqual({ type: 'intent', intentId, status: 'pending_approval' });
    const alert = await prisma.budgetAlert.create({
      data: { ownerId: a.userId, agentId: agent.id, scope: 'daily_limit', threshold: 80, period: '2026-11-26', spent: 800_000n, limit: 1_000_000n, currency: 'USDC', paymentIntentId: intentId, payload: {} },
      select: { id: true },
    });
    expect(await aStream.message()).toEqual({ type: 'budgetAlert', alertId: alert.id, agentId: agent.id });

    // B's first message is B's own alert: none of A's changes reached B's stream.
    const bAgent = await createAgent(b.userId);
    expect(await bStream.message()).toEqual({ type: 'agent', agentId: bAgent.id });
    const bAlert = await prisma.budgetAlert.create({
      data: { ownerId: b.userId, agentId: bAgent.id, scope: 'daily_limit', threshold: 100, period: '2026-11-26', spent: 1_000_000n, limit: 1_000_000n, currency: 'USDC', payload: {} },
      select: { id: true },
    });
    expect(await bStream.message()).toEqual({ type: 'budgetAlert', alertId: bAlert.id, agentId: bAgent.id });
    aStream.close();
    bStream.close();
  });

  it("deliver agent creation, updates, funding and deletion to the owner's agent subscription only", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const aStream = await live('agentChanges', a);
    const bStream = await live('agentChanges', b);

    const agent = await createAgent(a.userId);
    expect(await aStream.message()).toEqual({ type: 'changed', agentId: agent.id, change: 'created' });
    await prisma.agent.update({ where: { id: agent.id }, data: { status: 'suspended' } });
    expect(await aStream.message()).toEqual({ type: 'changed', agentId: agent.id, change: 'updated' });

    // Its wallet opening and being funded change the agent card too.
    const wallet = await prisma.agentWallet.create({ data: { agentId: agent.id, walletAddress: `agnic_${agent.id}` }, select: { id: true } });
    expect(await aStream.message()).toEqual({ type: 'changed', agentId: agent.id, change: 'updated' });
    const account = await prisma.ledgerAccount.create({ data: { kind: 'agent', currency: 'USDC', agentWalletId: wallet.id }, select: { id: true } });
    await deposit(a, 2_000_000n);
    await prisma.ledgerTransaction.create({
      data: {
        type: 'agent_funding',
        entries: {
          create: [
            { accountId: a.accountId, amount: -1_000_000n, currency: 'USDC' },
            { accountId: account.id, amount: 1_000_000n, currency: 'USDC' },
          ],
        },
      },
    });
    expect(await aStream.message()).toEqual({ type: 'changed', agentId: agent.id, change: 'updated' });

    const doomed = await createAgent(a.userId);
    expect(await aStream.message()).toEqual({ type: 'changed', agentId: doomed.id, change: 'created' });
    await prisma.agent.delete({ where: { id: doomed.id } });
    expect(await aStream.message()).toEqual({ type: 'changed', agentId: doomed.id, change: 'deleted' });

    const bAgent = await createAgent(b.userId);
    expect(await bStream.message()).toEqual({ type: 'changed', agentId: bAgent.id, change: 'created' });
    aStream.close();
    bStream.close();
  });

  it('deliver a new wallet transaction to its owner once committed, and never a rolled-back one', async () => {
    const a = await createOwner();
    const b = await createOwner();
    const aStream = await live('transactionCreated', a);
    const bStream = await live('transactionCreated', b);
    const record = (owner: Owner, db: Pick<PrismaClient, 'ownerTransaction'> = prisma) =>
      db.ownerTransaction.create({
        data: { walletId: owner.walletId, type: 'deposit', amount: 1_000_000n, currency: 'USDC' },
        select: { id: true },
      });

    await expect(
      prisma.$transaction(async (tx) => {
        await record(a, tx);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const committed = await record(a);
    expect(await aStream.message()).toEqual({ type: 'created', id: committed.id, walletId: a.walletId });

    const bCommitted = await record(b);
    expect(await bStream.message()).toEqual({ type: 'created', id: bCommitted.id, walletId: b.walletId });
    aStream.close();
    bStream.close();
  });

  it("deliver an agent's new transactions to its owner when asked for that agent, and nothing to another owner naming it", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const agent = await createAgent(a.userId);
    const other = await createAgent(a.userId);
    const aStream = await live('transactionCreated', a, { agentId: agent.id });
    const bStream = await live('transactionCreated', b, { agentId: agent.id });
    const record = (agentId: string) =>
      prisma.agentTransaction.create({
        data: { agentId, type: 'mcp_payment', amount: 10_000n, currency: 'USDC' },
        select: { id: true },
      });

    await record(other.id); // another agent of the same owner: filtered out
    const paid = await record(agent.id);
    expect(await aStream.message()).toEqual({ type: 'created', id: paid.id, agentId: agent.id });
    await expect(bStream.message(300)).rejects.toThrow(/No event/);
    aStream.close();
    bStream.close();
  });

  it("refuse another owner's payment on the live flow with NOT_FOUND, and end its own retryably when the progress cannot be read", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const agent = await createAgent(a.userId);
    const intentId = randomUUID();
    await prisma.paymentIntent.create({
      data: { id: intentId, ownerId: a.userId, agentId: agent.id, createdBy: 'owner', amount: 1_000_000n, currency: 'USDC', workflowId: `payment-${intentId}`, idempotencyKey: `auto:${intentId}`, requestHash: 'test' },
    });
    const foreign = await subscribe('intentProgress', { token: b.token, input: { intentId } });
    const refused = (await foreign.message()) as { 'serialized-error': { data: { code: string }; message: string } };
    expect(refused['serialized-error']).toMatchObject({ message: 'Payment intent not found', data: { code: 'NOT_FOUND' } });
    foreign.close();

    // This app has no Temporal: the owner's own stream ends with a code the client retries.
    const own = await subscribe('intentProgress', { token: a.token, input: { intentId } });
    const unavailable = (await own.message()) as { 'serialized-error': { data: { code: string } } };
    expect(unavailable['serialized-error'].data.code).toBe('SERVICE_UNAVAILABLE');
    own.close();
  });

  it('refuse a malformed agent id with BAD_REQUEST', async () => {
    const a = await createOwner();
    const stream = await subscribe('transactionCreated', { token: a.token, input: { agentId: 'not-a-uuid' } });
    const message = (await stream.message()) as { 'serialized-error': { data: { code: string } } };
    expect(message['serialized-error'].data.code).toBe('BAD_REQUEST');
    stream.close();
  });

  it('end a stream with UNAUTHORIZED soon after its session signs out', async () => {
    const a = await createOwner();
    const stream = await live('walletChanges', a);
    const logout = await t.app.inject({ method: 'POST', url: '/auth/v1/logout', headers: { authorization: `Bearer ${a.token}` } });
    expect(logout.statusCode).toBe(204);

    const message = (await stream.message(10_000)) as { 'serialized-error': { data: { code: string } } };
    expect(message['serialized-error'].data.code).toBe('UNAUTHORIZED');
    expect(await stream.message(10_000)).toBeNull();
  });

  it('end a stream whose session was revoked through the database, as a sign-out on another replica does', async () => {
    const a = await createOwner();
    const stream = await live('agentChanges', a);
    await prisma.session.updateMany({ where: { userId: a.userId }, data: { revokedAt: new Date() } });

    const message = (await stream.message(10_000)) as { 'serialized-error': { data: { code: string } } };
    expect(message['serialized-error'].data.code).toBe('UNAUTHORIZED');
    expect(await stream.message(10_000)).toBeNull();
  });

  it('refuse a stream opened with an owner API key: keys are for the REST API, where each use is scoped and audited', async () => {
    const a = await createOwner();
    const session = { authorization: `Bearer ${a.token}` };
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: session, payload: { name: 'realtime', scopes: ['read'], expires_in_days: 30 } });
    expect(created.statusCode, created.body).toBe(201);
    const apiKey = created.json() as { id: string; key: string };
    const stream = await subscribe('walletChanges', { token: apiKey.key });
    const message = (await stream.message()) as { 'serialized-error': { data: { code: string } } };
    expect(message['serialized-error'].data.code).toBe('FORBIDDEN');
    stream.close();
  });

  it('keep the stream of a live session open across its credential checks', async () => {
    const a = await createOwner();
    const stream = await live('walletChanges', a);
    // Several checks pass while nothing happens; the stream still delivers afterwards.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await deposit(a, 1_000_000n);
    expect(await stream.message()).toEqual({ type: 'changed', walletId: a.walletId });
    stream.close();
  });

  it('drop the subscription of a client that disconnects', async () => {
    const a = await createOwner();
    // Streams the earlier tests closed are dropped asynchronously: count once they are gone.
    let before = -1;
    await until(async () => {
      const now = t.deps.events.subscriptionCount();
      const settled = now === before;
      before = now;
      if (!settled) await new Promise((resolve) => setTimeout(resolve, 200));
      return settled;
    }, 'earlier subscriptions to settle');
    const stream = await live('walletChanges', a);
    expect(t.deps.events.subscriptionCount()).toBe(before + 1);
    stream.close();
    await until(() => t.deps.events.subscriptionCount() === before, 'the subscription to be dropped');
  });

  it('end open streams with a retryable error when the server shuts down, so clients reconnect elsewhere', async () => {
    const other = await createTestApp();
    try {
      const url = await other.app.listen({ port: 0, host: '127.0.0.1' });
      const owner = await createOwner(other);
      const stream = await subscribe('walletChanges', { token: owner.token, url });
      expect(await stream.message()).toEqual({ type: 'sync' });

      await other.deps.events.close();
      const message = (await stream.message()) as { 'serialized-error': { data: { code: string } } };
      expect(message['serialized-error'].data.code).toBe('SERVICE_UNAVAILABLE');
      expect(await stream.message()).toBeNull();
      // With no stream left open, the server closes at once.
      await other.app.close();
    } finally {
      await other.cleanup();
    }
  });
});

// ---------------------------------------------------------------- the event bus

describe('event bus', () => {
  async function take<T extends RealtimeTopic>(iterator: AsyncIterator<BusMessage<T>>): Promise<BusMessage<T>> {
    const result = await iterator.next();
    if (result.done) throw new Error('the subscription ended');
    return result.value;
  }

  it('collapses the events of a subscriber that falls behind into one sync', async () => {
    const events = createEventBus({ db: t.deps.db, logger: pino({ level: 'silent' }) }, { maxQueue: 2 });
    try {
      const owner = await createOwner();
      const slow = events.subscribe({ ownerId: owner.userId, topics: ['wallet', 'agents'] });
      const watcher = events.subscribe({ ownerId: owner.userId, topics: ['wallet'] });
      expect(await take(slow)).toEqual({ type: 'sync' });
      expect(await take(watcher)).toEqual({ type: 'sync' });

      // The slow subscriber reads nothing while three agents are created: its queue overflows.
      for (let i = 0; i < 3; i++) await createAgent(owner.userId);
      await deposit(owner, 1_000_000n);
      const walletEvent = { type: 'event', event: { topic: 'wallet', ownerId: owner.userId, walletId: owner.walletId } };
      // Announcements arrive in commit order, so once the watcher has the deposit, so has the slow one.
      expect(await take(watcher)).toEqual(walletEvent);

      expect(await take(slow)).toEqual({ type: 'sync' });
      expect(await take(slow)).toEqual(walletEvent);
      await slow.return();
      await watcher.return();
      expect(events.subscriptionCount()).toBe(0);
    } finally {
      await events.close();
    }
  });
});

// ---------------------------------------------------------------- across processes

// PGlite is one in-process session; only PostgreSQL has other connections to write through.
if (testDatabaseKind() === 'postgres') {
  describe('realtime on PostgreSQL', () => {
    it('delivers a change committed through another database connection, as another process would make it', async () => {
      const a = await createOwner();
      const stream = await live('walletChanges', a);
      const other = new pg.Client({ connectionString: t.databaseUrl });
      await other.connect();
      try {
        await other.query('BEGIN');
        const { rows } = await other.query<{ id: string }>(
          `INSERT INTO ledger_transactions (id, type) VALUES (gen_random_uuid(), 'deposit') RETURNING id`,
        );
        await other.query(
          `INSERT INTO ledger_entries (id, transaction_id, account_id, amount, currency)
           VALUES (gen_random_uuid(), $1, $2, -7000000, 'USDC'), (gen_random_uuid(), $1, $3, 7000000, 'USDC')`,
          [rows[0]!.id, EXTERNAL_ACCOUNT_IDS.USDC, a.accountId],
        );
        await other.query('COMMIT');
      } finally {
        await other.end();
      }
      expect(await stream.message()).toEqual({ type: 'changed', walletId: a.walletId });
      stream.close();
    });

    it('asks every subscriber to re-read after the listening connection was cut and restored', async () => {
      const a = await createOwner();
      const stream = await live('agentChanges', a);
      await prisma.$queryRaw`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'purser-listen'`;
      expect(await stream.message()).toEqual({ type: 'sync' });

      const agent = await createAgent(a.userId);
      expect(await stream.message()).toEqual({ type: 'changed', agentId: agent.id, change: 'created' });
      stream.close();
    });
  });
}
