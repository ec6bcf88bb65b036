/** Small builders for the database tests: an owner, an agent, and ledger postings. */
import { randomUUID } from 'node:crypto';
import { EXTERNAL_ACCOUNT_IDS, type Currency, type PrismaClient } from '../src/index';

export async function createOwner(prisma: PrismaClient) {
  const user = await prisma.user.create({
    data: { email: `${randomUUID()}@example.test`, passwordHash: 'not-a-real-hash', fullName: 'Test Owner' },
  });
  const wallet = await prisma.ownerWallet.create({ data: { userId: user.id } });
  const account = await prisma.ledgerAccount.create({ data: { kind: 'owner', currency: 'USDC', ownerWalletId: wallet.id } });
  return { user, wallet, account };
}

export async function createAgent(prisma: PrismaClient, ownerId: string) {
  const id = randomUUID();
  const agent = await prisma.agent.create({ data: { id, ownerId, name: 'Test agent', did: `did:agnic:${id}` } });
  const wallet = await prisma.agentWallet.create({ data: { agentId: agent.id, walletAddress: `agnic_${id}` } });
  const account = await prisma.ledgerAccount.create({ data: { kind: 'agent', currency: 'USDC', agentWalletId: wallet.id } });
  return { agent, wallet, account };
}

export async function externalAccount(prisma: PrismaClient, currency: Currency = 'USDC') {
  return prisma.ledgerAccount.findUniqueOrThrow({ where: { id: EXTERNAL_ACCOUNT_IDS[currency] } });
}

/** Posts one balanced movement of `amount` USDC from one account to another. */
export async function transfer(prisma: PrismaClient, fromAccountId: string, toAccountId: string, amount: bigint) {
  return prisma.ledgerTransaction.create({
    data: {
      type: 'transfer',
      entries: {
        create: [
          { accountId: fromAccountId, amount: -amount, currency: 'USDC' },
          { accountId: toAccountId, amount, currency: 'USDC' },
        ],
      },
    },
  });
}
