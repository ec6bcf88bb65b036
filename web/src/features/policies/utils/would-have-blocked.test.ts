import { describe, expect, it } from 'vitest';
import { blockReason, type RecordedDecision } from './would-have-blocked';

const decision: RecordedDecision = {
  fired: [
    { outcome: 'deny', message: 'Amount $7.25 is above the max per transaction of $5.00', policyId: 'p-v2', shadow: true },
    { outcome: 'require_approval', message: 'Amount $7.25 is above the approval threshold of $5.00', policyId: 'p-v2', shadow: true },
    { outcome: 'deny', message: 'Category gambling is blocked', policyId: 'other', shadow: true },
    { outcome: 'deny', message: 'Enforced rule', policyId: 'p-v2', shadow: false },
  ],
  shadow: [
    { policyId: 'p-v2', name: 'Tight cap', version: 2, decision: 'deny' },
    { policyId: 'other', name: 'No gambling', version: 1, decision: 'deny' },
  ],
};

describe('blockReason', () => {
  it("gives the refusing rules of the named shadow policy's version", () => {
    expect(blockReason(decision, 'Tight cap')).toEqual({ version: 2, messages: ['Amount $7.25 is above the max per transaction of $5.00'] });
  });

  it('gives nothing when the policy would not have refused, or there is no decision', () => {
    expect(blockReason({ ...decision, shadow: [{ policyId: 'p-v2', name: 'Tight cap', version: 2, decision: 'allow' }] }, 'Tight cap')).toEqual({ version: null, messages: [] });
    expect(blockReason(null, 'Tight cap')).toEqual({ version: null, messages: [] });
  });
});
