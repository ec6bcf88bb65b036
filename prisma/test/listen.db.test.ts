import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_ACCOUNT_IDS, openDatabase, type Database } from '../src/index';
import { APPLICATION_NAME } from '../src/pg-listener';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../src/testing';
import { createAgent, createOwner, externalAccount, transfer } from './fixtures';

let test: TestDatabase;
let db: Database;

beforeAll(async () => {
  test = await openTestDatabase();
  db = test.db;
}, 60_000);

afterAll(async () => {
  await test?.cleanup();
});

/** Everything a channel receives, in order. */
async function record(channel: string, options?: { onReconnect?: () => void }) {
  const payloads: string[] = [];
  const stop = await db.listen(channel, (payload) => payloads.push(payload), options);
  return { payloads, stop };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function notify(channel: string, payload: string) {
  return db.prisma.$executeRaw`SELECT pg_notify(${channel}, ${payload})`;
}

/** Notifications arrive in commit order, so once this one is heard every earlier one has been. */
async function drain(channel: string, payloads: string[]): Promise<void> {
  const marker = `drain-${randomUUID()}`;
  await notify(channel, marker);
  await until(() => payloads.includes(marker), 'the drain marker');
  payloads.splice(payloads.indexOf(marker), 1);
}

const channelName = () => `test_${randomUUID().replaceAll('-', '')}`;

describe('Database.listen', () => {
  it('hears a notification once its transaction commits and never one whose transaction rolled back', async () => {
    const channel = channelName();
    const { payloads, stop } = await record(channel);

    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_notify(${channel}, 'rolled back')`;
        throw new Error('abandon the transaction');
      }),
    ).rejects.toThrow('abandon the transaction');

    await db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_notify(${channel}, 'committed')`;
      // Still inside the transaction: nobody has heard it yet.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(payloads).toEqual([]);
    });

    await until(() => payloads.length > 0, 'the committed notification');
    await drain(channel, payloads);
    expect(payloads).toEqual(['committed']);
    await stop();
  });

  it('stops delivering to a listener that stopped while another listener on the channel keeps hearing', async () => {
    const channel = channelName();
    const first = await record(channel);
    const second = await record(channel);

    await notify(channel, 'one');
    await until(() => first.payloads.length === 1 && second.payloads.length === 1, 'both listeners');
    await first.stop();
    await first.stop(); // stopping twice is harmless
    await notify(channel, 'two');
    await drain(channel, second.payloads);

    expect(first.payloads).toEqual(['one']);
    expect(second.payloads).toEqual(['one', 'two']);
    await second.stop();
  });
});

describe('realtime triggers on purser_events', () => {
  it('announce balance changes, agent changes and new transactions with owner and ids only', async () => {
    const { payloads, stop } = await record('purser_events');
    const events = () => payloads.map((payload) => JSON.parse(payload) as Record<string, unknown>);
    const owner = await createOwner(db.prisma);
    const userId = owner.user.id;
    await drain('purser_events', payloads);
    expect(events()).toEqual([]); // creating a wallet with zero balances announces nothing

    // Two postings to one wallet in one transaction: announced once.
    await db.prisma.ledgerTransaction.create({
      data: {
        type: 'deposit',
        entries: {
          create: [
            { accountId: EXTERNAL_ACCOUNT_IDS.USDC, amount: -3_000_000n, currency: 'USDC' },
            { accountId: owner.account.id, amount: 1_000_000n, currency: 'USDC' },
            { accountId: owner.account.id, amount: 2_000_000n, currency: 'USDC' },
          ],
        },
      },
    });
    await drain('purser_events', payloads);
    expect(events()).toEqual([{ topic: 'wallet', user_id: userId, wallet_id: owner.wallet.id }]);
    payloads.length = 0;

    const agent = await createAgent(db.prisma, userId);
    const agentId = agent.agent.id;
    await db.prisma.agent.update({ where: { id: agentId }, data: { name: 'Renamed' } });
    await db.prisma.spendingRules.create({ data: { agentId, maxTransactionAmount: 100_000_000n, maxDailyLimit: 1_000_000_000n } });
    await transfer(db.prisma, owner.account.id, agent.account.id, 500_000n);
    await drain('purser_events', payloads);
    expect(events()).toEqual([
      { topic: 'agents', owner_id: userId, agent_id: agentId, op: 'INSERT' },
      { topic: 'agents', owner_id: userId, agent_id: agentId, op: 'UPDATE' }, // wallet created
      { topic: 'agents', owner_id: userId, agent_id: agentId, op: 'UPDATE' }, // renamed
      { topic: 'agents', owner_id: userId, agent_id: agentId, op: 'UPDATE' }, // spending rules
      { topic: 'wallet', user_id: userId, wallet_id: owner.wallet.id }, // funding the agent
      { topic: 'agents', owner_id: userId, agent_id: agentId, op: 'UPDATE' },
    ]);
    payloads.length = 0;

    const ownerTransaction = await db.prisma.ownerTransaction.create({
      data: { walletId: owner.wallet.id, type: 'deposit', amount: 3_000_000n, currency: 'USDC' },
    });
    const agentTransaction = await db.prisma.agentTransaction.create({
      data: { agentId, type: 'mcp_payment', amount: 100_000n, currency: 'USDC', metadata: { secret: 'not announced' } },
    });
    const bareAgentId = randomUUID();
    await db.prisma.agent.create({ data: { id: bareAgentId, ownerId: userId, name: 'Short-lived', did: `did:agnic:${bareAgentId}` } });
    await db.prisma.agent.delete({ where: { id: bareAgentId } });
    await drain('purser_events', payloads);
    expect(events()).toEqual([
      { topic: 'transactions', user_id: userId, wallet_id: owner.wallet.id, id: ownerTransaction.id },
      { topic: 'agent_transactions', owner_id: userId, agent_id: agentId, id: agentTransaction.id },
      { topic: 'agents', owner_id: userId, agent_id: bareAgentId, op: 'INSERT' },
      { topic: 'agents', owner_id: userId, agent_id: bareAgentId, op: 'DELETE' },
    ]);
    await stop();
  });

  it('announce nothing for a ledger transaction that is refused at commit', async () => {
    const { payloads, stop } = await record('purser_events');
    const owner = await createOwner(db.prisma);
    const external = await externalAccount(db.prisma);
    await drain('purser_events', payloads);

    await expect(
      db.prisma.ledgerTransaction.create({
        data: {
          type: 'deposit',
          entries: {
            create: [
              { accountId: external.id, amount: -2_000_000n, currency: 'USDC' },
              { accountId: owner.account.id, amount: 1_000_000n, currency: 'USDC' },
            ],
          },
        },
      }),
    ).rejects.toThrow(/does not balance/);
    await drain('purser_events', payloads);

    expect(payloads).toEqual([]);
    await stop();
  });
});

// Only PostgreSQL has other connections: PGlite is one in-process session.
if (testDatabaseKind() === 'postgres') {
  describe('Database.listen on PostgreSQL', () => {
    it('hears what another connection commits', async () => {
      const channel = channelName();
      const { payloads, stop } = await record(channel);
      const other = new pg.Client({ connectionString: test.databaseUrl });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query('SELECT pg_notify($1, $2)', [channel, 'from elsewhere, rolled back']);
        await other.query('ROLLBACK');
        await other.query('SELECT pg_notify($1, $2)', [channel, 'from elsewhere']);
      } finally {
        await other.end();
      }
      await drain(channel, payloads);
      expect(payloads).toEqual(['from elsewhere']);
      await stop();
    });

    it('reconnects after its connection is cut, says so, and hears what is committed afterwards', async () => {
      const channel = channelName();
      let reconnects = 0;
      const { payloads, stop } = await record(channel, { onReconnect: () => reconnects++ });
      const terminated = await db.prisma.$queryRaw<{ pid: number }[]>`
        SELECT pg_terminate_backend(pid) AS terminated, pid FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = ${APPLICATION_NAME}`;
      expect(terminated).toHaveLength(1);

      await until(() => reconnects === 1, 'the reconnect');
      await notify(channel, 'after the reconnect');
      await drain(channel, payloads);
      expect(payloads).toEqual(['after the reconnect']);
      await stop();
    });

    it('closes its connection when the last listener stops', async () => {
      const countListeners = async () => {
        const [row] = await db.prisma.$queryRaw<{ n: bigint }[]>`
          SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${APPLICATION_NAME}`;
        return Number(row?.n);
      };
      const first = await record(channelName());
      const second = await record(channelName());
      expect(await countListeners()).toBe(1);
      await first.stop();
      expect(await countListeners()).toBe(1);
      await second.stop();
      // The backend leaves pg_stat_activity a moment after the client hung up.
      let remaining = await countListeners();
      for (let attempt = 0; remaining > 0 && attempt < 100; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        remaining = await countListeners();
      }
      expect(remaining).toBe(0);
    });
  });

  describe('the PostgreSQL pool', () => {
    it('survives the server ending an idle connection, before Prisma ever connected and after it disconnected', async () => {
      const warnings: string[] = [];
      const logger = { info() {}, warn: (_: object, message?: string) => void warnings.push(message ?? '') };
      const other = await openDatabase({ databaseUrl: test.databaseUrl!, dataDir: '', migrate: false, logger });
      const endIdleConnection = async () => {
        const [connection] = await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid', []);
        await db.prisma.$queryRaw`SELECT pg_terminate_backend(${connection!.pid}::int)`;
        await until(() => warnings.length > 0, 'the warning');
        warnings.splice(0);
      };
      try {
        // Only the driver-level query has used the pool: Prisma's adapter has not attached its listener.
        await endIdleConnection();
        expect(await other.query('SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
        await other.prisma.$queryRaw`SELECT 1`;
        await other.prisma.$disconnect();
        // Prisma's adapter removed its listener at $disconnect; the pool still has one.
        await endIdleConnection();
        expect(await other.query('SELECT 2 AS two', [])).toEqual([{ two: 2 }]);
      } finally {
        await other.close();
      }
    });
  });
}
