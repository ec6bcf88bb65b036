import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditHashParts, hashAuditEvent, type HashedAuditFields } from './audit-hash';

/** What purser_append_audit_events computes from the parts, done here in TypeScript. */
function hashFromParts(event: HashedAuditFields): string {
  const { head, middle, tail } = auditHashParts(event);
  return createHash('sha256').update(`${head}${event.chainSeq}${middle}${event.prevHash}${tail}`, 'utf8').digest('hex');
}

describe('an audit event hashed from the parts the database joins', () => {
  const base: HashedAuditFields = {
    chainId: 'owner:0195f0c4-1111-7000-8000-000000000001',
    chainSeq: 42n,
    at: new Date('2026-12-06T11:00:00.123Z'),
    actor: 'agent:0195f0c4-2222-7000-8000-000000000002',
    action: 'payment_intent.created',
    subject: 'payment_intent:0195f0c4-3333-7000-8000-000000000003',
    ownerId: '0195f0c4-1111-7000-8000-000000000001',
    data: { amount: '10000', currency: 'USDC', merchant: null },
    prevHash: 'ab'.repeat(32),
  };

  it('has the hash the verifier computes', () => {
    expect(hashFromParts(base)).toBe(hashAuditEvent(base));
  });

  it('holds for data that mimics the cut, quotes and non-ASCII text, and the system chain', () => {
    const tricky: HashedAuditFields = {
      ...base,
      chainId: 'system',
      ownerId: null,
      chainSeq: 1n,
      subject: 'agent:"x","chainSeq":"9"',
      data: { chainSeq: '7', prevHash: '","subject":"', note: 'café ☕ \u0000 "quoted"', nested: { z: 1, a: [true, null] } },
      prevHash: '0'.repeat(64),
    };
    expect(hashFromParts(tricky)).toBe(hashAuditEvent(tricky));
  });

  it('changes when the position or the previous hash does', () => {
    expect(hashFromParts({ ...base, chainSeq: 43n })).not.toBe(hashAuditEvent(base));
    expect(hashFromParts({ ...base, prevHash: 'cd'.repeat(32) })).not.toBe(hashAuditEvent(base));
  });
});
