/**
 * A payment intent row written straight into the database, as createIntent (or a later step)
 * leaves it, for tests that call the payment steps directly. No workflow runs for it.
 */
import { randomUUID } from 'node:crypto';
import type { Prisma, PrismaClient } from '@purser/db';

export async function insertIntentRow(
  prisma: PrismaClient,
  row: { ownerId: string; agentId: string; amount?: bigint; createdBy?: 'owner' | 'agent' } & Partial<Pick<Prisma.PaymentIntentUncheckedCreateInput, 'status' | 'rail' | 'toAddress'>>,
): Promise<string> {
  const id = randomUUID();
  const { amount = 1_000_000n, createdBy = 'owner', ...rest } = row;
  await prisma.paymentIntent.create({
    data: { id, amount, createdBy, currency: 'USDC', workflowId: `payment-${id}`, idempotencyKey: `auto:${id}`, requestHash: 'test', ...rest },
  });
  return id;
}
