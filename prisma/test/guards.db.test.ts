import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/index';
import { openTestDatabase, type TestDatabase } from '../src/testing';
import { createAgent, createOwner, externalAccount, transfer } from './fixtures';

const GENESIS = '0'.repeat(64);

let test: TestDatabase;
let db: Database;

beforeAll(async () => {
  test = await openTestDatabase();
  db = test.db;
}, 60_000);

afterAll(async () => {
  await test?.cleanup();
});

describe('ledger', () => {
  it('posting a balanced transaction moves the ledger accounts and the wallets together', async () => {
    const owner = await createOwner(db.prisma);
    const agent = await createAgent(db.prisma, owner.user.id);
    const external = await externalAccount(db.prisma);

    await transfer(db.prisma, external.id, owner.account.id, 50_000_000n);
    await transfer(db.prisma, owner.account.id, agent.account.id, 20_000_000n);

    const ownerWallet = await db.prisma.ownerWallet.findUniqueOrThrow({ where: { id: owner.wallet.id } });
    const agentWallet = await db.prisma.agentWallet.findUniqueOrThrow({ where: { id: agent.wallet.id } });
    const ownerAccount = await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { id: owner.account.id } });
    expect(ownerWallet.balanceUsdc).toBe(30_000_000n);
    expect(ownerAccount.balance).toBe(30_000_000n);
    expect(ownerWallet.balanceUsdt).toBe(0n);
    expect(agentWallet.balanceUsdc).toBe(20_000_000n);
  });

  it('a ledger entry cannot be updated or deleted', async () => {
    const owner = await createOwner(db.prisma);
    const external = await externalAccount(db.prisma);
    const posted = await transfer(db.prisma, external.id, owner.account.id, 1_000_000n);
    const entry = await db.prisma.ledgerEntry.findFirstOrThrow({ where: { transactionId: posted.id } });

    await expect(db.prisma.ledgerEntry.update({ where: { id: entry.id }, data: { amount: 5n } })).rejects.toThrow(
      /ledger_entries is append-only: UPDATE is refused/,
    );
    await expect(db.prisma.ledgerEntry.delete({ where: { id: entry.id } })).rejects.toThrow(
      /ledger_entries is append-only: DELETE is refused/,
    );
    await expect(db.prisma.$executeRawUnsafe('TRUNCATE ledger_entries CASCADE')).rejects.toThrow(/append-only: TRUNCATE is refused/);
    await expect(db.prisma.ledgerTransaction.delete({ where: { id: posted.id } })).rejects.toThrow(
      /ledger_transactions is append-only: DELETE is refused/,
    );
    expect((await db.prisma.ledgerEntry.findUniqueOrThrow({ where: { id: entry.id } })).amount).toBe(entry.amount);
  });

  it('an entry that would overdraw an agent account is refused and changes no balance', async () => {
    const owner = await createOwner(db.prisma);
    const agent = await createAgent(db.prisma, owner.user.id);
    const external = await externalAccount(db.prisma);
    await transfer(db.prisma, external.id, agent.account.id, 5_000_000n);

    await expect(transfer(db.prisma, agent.account.id, owner.account.id, 5_000_001n)).rejects.toThrow(
      /ledger_accounts_balance_not_negative/,
    );

    expect((await db.prisma.agentWallet.findUniqueOrThrow({ where: { id: agent.wallet.id } })).balanceUsdc).toBe(5_000_000n);
    expect((await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { id: agent.account.id } })).balance).toBe(5_000_000n);
  });

  it('the external account may go negative because it counts money that entered the platform', async () => {
    const owner = await createOwner(db.prisma);
    const before = (await externalAccount(db.prisma)).balance;
    await transfer(db.prisma, (await externalAccount(db.prisma)).id, owner.account.id, 7_000_000n);
    expect((await externalAccount(db.prisma)).balance).toBe(before - 7_000_000n);
  });

  it('a ledger transaction whose entries do not sum to zero is refused at commit', async () => {
    const owner = await createOwner(db.prisma);
    const external = await externalAccount(db.prisma);

    const unbalanced = db.prisma.$transaction(async (tx) => {
      const posted = await tx.ledgerTransaction.create({ data: { type: 'deposit' } });
      await tx.ledgerEntry.create({ data: { transactionId: posted.id, accountId: external.id, amount: -3_000_000n, currency: 'USDC' } });
      await tx.ledgerEntry.create({ data: { transactionId: posted.id, accountId: owner.account.id, amount: 2_000_000n, currency: 'USDC' } });
    });

    await expect(unbalanced).rejects.toThrow(/does not balance: its USDC entries sum to -1000000, not 0/);
    expect((await db.prisma.ownerWallet.findUniqueOrThrow({ where: { id: owner.wallet.id } })).balanceUsdc).toBe(0n);
  });

  it('a ledger transaction without entries is refused', async () => {
    await expect(db.prisma.ledgerTransaction.create({ data: { type: 'deposit' } })).rejects.toThrow(/has no entries/);
  });

  it('an entry in one currency cannot post to an account held in another', async () => {
    const owner = await createOwner(db.prisma);
    const externalUsdt = await externalAccount(db.prisma, 'USDT');
    const mixed = db.prisma.ledgerTransaction.create({
      data: {
        type: 'deposit',
        entries: {
          create: [
            { accountId: externalUsdt.id, amount: -1n, currency: 'USDT' },
            { accountId: owner.account.id, amount: 1n, currency: 'USDT' },
          ],
        },
      },
    });
    await expect(mixed).rejects.toThrow(/ledger entry in USDT cannot post to ledger account .* held in USDC/);
  });
});

describe('wallet balances', () => {
  it('a wallet balance cannot be written directly, only through ledger entries', async () => {
    const owner = await createOwner(db.prisma);
    await expect(db.prisma.ownerWallet.update({ where: { id: owner.wallet.id }, data: { balanceUsdc: 1_000_000n } })).rejects.toThrow(
      /owner_wallets balances change only through ledger entries/,
    );
    await expect(db.prisma.ledgerAccount.update({ where: { id: owner.account.id }, data: { balance: 1n } })).rejects.toThrow(
      /ledger account balances change only through ledger entries/,
    );
    await expect(db.prisma.agentWallet.create({ data: { agentId: randomUUID(), walletAddress: 'x', balanceUsdc: 1n } })).rejects.toThrow(
      /agent_wallets balances start at 0/,
    );
  });

  it('a negative wallet balance is refused by a CHECK even with the triggers switched off', async () => {
    const owner = await createOwner(db.prisma);
    const agent = await createAgent(db.prisma, owner.user.id);
    // session_replication_role = replica disables ordinary triggers, leaving only the CHECKs.
    const bypass = (sql: string) =>
      db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica');
        await tx.$executeRawUnsafe(sql);
      });

    await expect(bypass(`UPDATE owner_wallets SET balance_usdc = -1 WHERE id = '${owner.wallet.id}'`)).rejects.toThrow(
      /owner_wallets_balance_usdc_not_negative/,
    );
    await expect(bypass(`UPDATE agent_wallets SET balance_usdt = -1 WHERE id = '${agent.wallet.id}'`)).rejects.toThrow(
      /agent_wallets_balance_usdt_not_negative/,
    );
    await expect(bypass(`UPDATE ledger_accounts SET balance = -1 WHERE id = '${agent.account.id}'`)).rejects.toThrow(
      /ledger_accounts_balance_not_negative/,
    );
  });
});

describe('audit events', () => {
  /** A raw event (the database does not compute hashes): the next one of `chainId`. */
  async function appendRaw(chainId: string, ownerId: string | null = null) {
    const head = await db.prisma.auditChainHead.findUnique({ where: { chainId } });
    return db.prisma.auditEvent.create({
      data: {
        chainId,
        chainSeq: (head?.lastSeq ?? 0n) + 1n,
        ownerId,
        actor: 'system',
        action: 'test.recorded',
        subject: 'test:1',
        prevHash: head?.lastHash ?? GENESIS,
        hash: randomUUID(),
      },
    });
  }

  it('an audit event cannot be updated or deleted', async () => {
    const event = await appendRaw('system');

    await expect(db.prisma.auditEvent.update({ where: { seq: event.seq }, data: { action: 'tampered' } })).rejects.toThrow(
      /audit_events is append-only: UPDATE is refused/,
    );
    await expect(db.prisma.auditEvent.delete({ where: { seq: event.seq } })).rejects.toThrow(
      /audit_events is append-only: DELETE is refused/,
    );
    await expect(db.prisma.$executeRawUnsafe('TRUNCATE audit_events')).rejects.toThrow(/append-only: TRUNCATE is refused/);
    expect((await db.prisma.auditEvent.findUniqueOrThrow({ where: { seq: event.seq } })).action).toBe('test.recorded');
  });

  it('an audit event must follow the head of its own chain, which it then becomes, so a chain can neither fork nor skip', async () => {
    const owner = randomUUID();
    const chainId = `owner:${owner}`;
    const first = await appendRaw(chainId, owner);
    expect(first).toMatchObject({ chainSeq: 1n, prevHash: GENESIS });
    expect(await db.prisma.auditChainHead.findUnique({ where: { chainId } })).toEqual({ chainId, lastSeq: 1n, lastHash: first.hash });

    const next = { chainId, ownerId: owner, actor: 'system', action: 'b', subject: 's' };
    // A second first event, a fork at the head, a skipped position, a wrong link.
    for (const [chainSeq, prevHash] of [
      [1n, GENESIS],
      [2n, first.prevHash],
      [3n, first.hash],
      [2n, 'f'.repeat(64)],
    ] as const) {
      await expect(db.prisma.auditEvent.create({ data: { ...next, chainSeq, prevHash, hash: randomUUID() } })).rejects.toThrow(
        /audit event must follow the head of chain/,
      );
    }
    const second = await db.prisma.auditEvent.create({ data: { ...next, chainSeq: 2n, prevHash: first.hash, hash: randomUUID() } });
    expect(await db.prisma.auditChainHead.findUnique({ where: { chainId } })).toEqual({ chainId, lastSeq: 2n, lastHash: second.hash });

    // Another chain starts from its own genesis, whatever this one holds.
    const other = randomUUID();
    expect(await appendRaw(`owner:${other}`, other)).toMatchObject({ chainSeq: 1n, prevHash: GENESIS });
  });

  it('an audit event joins its owner’s chain, or the system chain without an owner, and the legacy chain takes no new events', async () => {
    const owner = randomUUID();
    await expect(appendRaw(`owner:${randomUUID()}`, owner)).rejects.toThrow(/audit_events_chain_matches_owner/);
    await expect(appendRaw('system', owner)).rejects.toThrow(/audit_events_chain_matches_owner/);
    await expect(appendRaw(`owner:${owner}`, null)).rejects.toThrow(/audit_events_chain_matches_owner/);
    await expect(appendRaw('legacy', owner)).rejects.toThrow(/the legacy audit chain is closed/);
  });

  it('an audit chain head only moves forward one event at a time, and is never removed', async () => {
    const event = await appendRaw('system');
    await expect(db.prisma.auditChainHead.update({ where: { chainId: 'system' }, data: { lastSeq: event.chainSeq - 1n } })).rejects.toThrow(
      /only moves forward one event at a time/,
    );
    await expect(db.prisma.auditChainHead.update({ where: { chainId: 'system' }, data: { lastSeq: event.chainSeq + 2n } })).rejects.toThrow(
      /only moves forward one event at a time/,
    );
    await expect(db.prisma.auditChainHead.delete({ where: { chainId: 'system' } })).rejects.toThrow(/never removed: DELETE is refused/);
    await expect(db.prisma.$executeRawUnsafe('TRUNCATE audit_chain_heads')).rejects.toThrow(/never removed: TRUNCATE is refused/);
    expect(await db.prisma.auditChainHead.findUnique({ where: { chainId: 'system' } })).toEqual({ chainId: 'system', lastSeq: event.chainSeq, lastHash: event.hash });
  });
});

describe('idempotency', () => {
  it('a duplicate idempotency key for the same principal is refused', async () => {
    const principalId = randomUUID();
    const record = {
      principalType: 'agent' as const,
      principalId,
      key: 'order-42',
      endpoint: 'POST /payment',
      requestHash: 'h1',
      expiresAt: new Date(Date.now() + 86_400_000),
    };
    await db.prisma.idempotencyRecord.create({ data: record });

    await expect(db.prisma.idempotencyRecord.create({ data: { ...record, requestHash: 'h2' } })).rejects.toMatchObject({ code: 'P2002' });
    // The same key is free for another principal.
    await db.prisma.idempotencyRecord.create({ data: { ...record, principalId: randomUUID() } });
  });

  it('a second payment intent with the same agent and idempotency key is refused', async () => {
    const owner = await createOwner(db.prisma);
    const agent = await createAgent(db.prisma, owner.user.id);
    const intent = {
      ownerId: owner.user.id,
      agentId: agent.agent.id,
      createdBy: 'agent' as const,
      amount: 50_000_000n,
      currency: 'USDC' as const,
      idempotencyKey: 'order-42',
      requestHash: 'h1',
    };
    await db.prisma.paymentIntent.create({ data: { ...intent, workflowId: `payment-${randomUUID()}` } });

    await expect(db.prisma.paymentIntent.create({ data: { ...intent, workflowId: `payment-${randomUUID()}` } })).rejects.toMatchObject({
      code: 'P2002',
    });
  });

  it('a payment intent for zero or a negative amount is refused', async () => {
    const owner = await createOwner(db.prisma);
    const agent = await createAgent(db.prisma, owner.user.id);
    await expect(
      db.prisma.paymentIntent.create({
        data: {
          ownerId: owner.user.id,
          agentId: agent.agent.id,
          createdBy: 'agent',
          amount: 0n,
          currency: 'USDC',
          idempotencyKey: randomUUID(),
          requestHash: 'h',
          workflowId: randomUUID(),
        },
      }),
    ).rejects.toThrow(/payment_intents_amount_positive/);
  });
});

describe('secrets', () => {
  it('password hashes and key material are left out of query results unless selected by name', async () => {
    const owner = await createOwner(db.prisma);
    const user = await db.prisma.user.findUniqueOrThrow({ where: { id: owner.user.id } });
    expect(user).not.toHaveProperty('passwordHash');
    const withHash = await db.prisma.user.findUniqueOrThrow({ where: { id: owner.user.id }, select: { passwordHash: true } });
    expect(withHash.passwordHash).toBe('not-a-real-hash');

    const agent = await createAgent(db.prisma, owner.user.id);
    const key = await db.prisma.agentKey.create({
      data: {
        agentId: agent.agent.id,
        purpose: 'identity',
        publicKey: 'pk',
        ciphertext: new Uint8Array([1, 2, 3]),
        iv: new Uint8Array(12),
        tag: new Uint8Array(16),
      },
    });
    expect(key).not.toHaveProperty('ciphertext');
    const material = await db.prisma.agentKey.findUniqueOrThrow({ where: { id: key.id }, select: { ciphertext: true } });
    expect([...material.ciphertext]).toEqual([1, 2, 3]);
  });
});
