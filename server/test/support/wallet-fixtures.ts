/**
 * Owners, agents and agent wallets made directly with Prisma, for wallet and ledger tests:
 * those tests are about money, not about sign-up or agent creation.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AgentStatus, PrismaClient } from '@purser/db';

export interface TestOwner {
  userId: string;
  walletId: string;
}

export interface TestAgent {
  agentId: string;
  agentWalletId: string;
  walletAddress: string;
}

export async function createOwner(prisma: PrismaClient, name = 'Test Owner'): Promise<TestOwner> {
  const user = await prisma.user.create({
    data: { email: `${randomUUID()}@example.test`, passwordHash: 'not-a-real-hash', fullName: name },
    select: { id: true },
  });
  const wallet = await prisma.ownerWallet.create({ data: { userId: user.id }, select: { id: true } });
  return { userId: user.id, walletId: wallet.id };
}

export async function createAgent(
  prisma: PrismaClient,
  ownerId: string,
  options: { name?: string; status?: AgentStatus; withWallet?: boolean } = {},
): Promise<TestAgent> {
  const agent = await prisma.agent.create({
    data: { ownerId, name: options.name ?? 'Test Agent', did: `did:agnic:${randomUUID()}`, status: options.status ?? 'active' },
    select: { id: true },
  });
  if (options.withWallet === false) return { agentId: agent.id, agentWalletId: '', walletAddress: '' };
  const walletAddress = `0x${randomBytes(20).toString('hex')}`;
  const wallet = await prisma.agentWallet.create({ data: { agentId: agent.id, walletAddress }, select: { id: true } });
  return { agentId: agent.id, agentWalletId: wallet.id, walletAddress };
}

export async function ownerBalances(prisma: PrismaClient, userId: string): Promise<{ USDC: bigint; USDT: bigint }> {
  const wallet = await prisma.ownerWallet.findUniqueOrThrow({ where: { userId }, select: { balanceUsdc: true, balanceUsdt: true } });
  return { USDC: wallet.balanceUsdc, USDT: wallet.balanceUsdt };
}

export async function agentBalances(prisma: PrismaClient, agentId: string): Promise<{ USDC: bigint; USDT: bigint }> {
  const wallet = await prisma.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { balanceUsdc: true, balanceUsdt: true } });
  return { USDC: wallet.balanceUsdc, USDT: wallet.balanceUsdt };
}
