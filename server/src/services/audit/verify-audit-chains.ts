/**
 * Verifies every audit chain (audit-hash.ts): the legacy chain, each owner's, the system
 * chain. Each chain is walked from its genesis in chainSeq order, a batch at a time, checking
 * that positions run 1, 2, 3, ... without a gap, that each event links to the one before it
 * (the first to 64 zeros), that its hash is the hash of its contents, and that the chain's
 * head names its last event. Within a chain the first failing check is reported: a row edited
 * in place shows as a hash mismatch, a row edited and re-hashed or rows swapped as a broken
 * link, a deleted row as a sequence gap (or, at the end, a head mismatch).
 *
 * Appends go on while this runs: a chain is checked up to the head read when its walk starts,
 * and what is appended later is left for the next run.
 */
import type { PrismaClient } from '@purser/db';
import { GENESIS_HASH, hashAuditEvent } from './audit-hash';

export type AuditChainProblem = 'sequence gap' | 'broken link' | 'hash mismatch' | 'head mismatch' | 'missing head';

export type AuditChainReport = {
  chainId: string;
  ok: boolean;
  /** Events checked, the bad one included. */
  checked: number;
  /**
   * The first problem. For an event: its position and seq. For 'head mismatch': the position
   * the head names. For 'missing head' (events without a head row): the last position found.
   */
  firstBad?: { chainSeq: bigint; seq?: bigint; reason: AuditChainProblem };
};

export type AuditVerificationReport = {
  ok: boolean;
  /** Events checked in all chains. */
  checked: number;
  /** One report per chain, in chain id order. */
  chains: AuditChainReport[];
};

type Options = { batchSize?: number };

export async function verifyAuditChains(prisma: PrismaClient, options: Options = {}): Promise<AuditVerificationReport> {
  const batchSize = options.batchSize ?? 500;
  const chains: AuditChainReport[] = [];
  let after: string | undefined;
  for (;;) {
    const heads = await prisma.auditChainHead.findMany({
      where: after === undefined ? {} : { chainId: { gt: after } },
      orderBy: { chainId: 'asc' },
      take: batchSize,
    });
    for (const head of heads) chains.push(await verifyChain(prisma, head.chainId, head, batchSize));
    const last = heads.at(-1);
    if (!last || heads.length < batchSize) break;
    after = last.chainId;
  }
  // The insert trigger creates a chain's head with its first event, so events whose chain has
  // no head were written past the guards.
  const headless = await prisma.$queryRaw<{ chain_id: string }[]>`
    SELECT DISTINCT e."chain_id" FROM "audit_events" e
     WHERE NOT EXISTS (SELECT 1 FROM "audit_chain_heads" h WHERE h."chain_id" = e."chain_id")`;
  for (const { chain_id: chainId } of headless) chains.push(await verifyChain(prisma, chainId, undefined, batchSize));
  chains.sort((a, b) => (a.chainId < b.chainId ? -1 : a.chainId > b.chainId ? 1 : 0));
  return { ok: chains.every((chain) => chain.ok), checked: chains.reduce((sum, chain) => sum + chain.checked, 0), chains };
}

/**
 * Verifies one chain the way verifyAuditChains does, up to the head read now; null when the
 * chain has neither a head nor events (nothing was ever appended to it).
 */
export async function verifyAuditChain(prisma: PrismaClient, chainId: string, options: Options = {}): Promise<AuditChainReport | null> {
  const head = await prisma.auditChainHead.findUnique({ where: { chainId } });
  if (!head && !(await prisma.auditEvent.findFirst({ where: { chainId }, select: { seq: true } }))) return null;
  return verifyChain(prisma, chainId, head ?? undefined, options.batchSize ?? 500);
}

async function verifyChain(
  prisma: PrismaClient,
  chainId: string,
  head: { lastSeq: bigint; lastHash: string } | undefined,
  batchSize: number,
): Promise<AuditChainReport> {
  let expectedSeq = 1n;
  let expectedPrevHash = GENESIS_HASH;
  let checked = 0;
  const bad = (chainSeq: bigint, reason: AuditChainProblem, seq?: bigint): AuditChainReport => ({
    chainId,
    ok: false,
    checked,
    firstBad: { chainSeq, ...(seq === undefined ? {} : { seq }), reason },
  });
  for (;;) {
    const batch = await prisma.auditEvent.findMany({
      where: { chainId, chainSeq: { gte: expectedSeq, ...(head ? { lte: head.lastSeq } : {}) } },
      orderBy: { chainSeq: 'asc' },
      take: batchSize,
    });
    for (const event of batch) {
      checked++;
      if (event.chainSeq !== expectedSeq) return bad(event.chainSeq, 'sequence gap', event.seq);
      if (event.prevHash !== expectedPrevHash) return bad(event.chainSeq, 'broken link', event.seq);
      if (hashAuditEvent(event) !== event.hash) return bad(event.chainSeq, 'hash mismatch', event.seq);
      expectedSeq++;
      expectedPrevHash = event.hash;
    }
    if (batch.length < batchSize) break;
  }
  const lastSeq = expectedSeq - 1n;
  if (!head) return bad(lastSeq, 'missing head');
  // A head behind or ahead of the last event: events deleted from the end, or a head moved.
  if (head.lastSeq !== lastSeq || head.lastHash !== expectedPrevHash) return bad(head.lastSeq, 'head mismatch');
  return { chainId, ok: true, checked };
}
