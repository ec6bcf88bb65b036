import { describe, expect, it } from 'vitest';
import { approvalInput, initialApprovalForm, rejectionInput, toLocalInput, toUnits } from './approval-form';
import { linkProblemOf } from './link-problems';

const NOW = new Date('2026-12-07T10:00:00Z');
const request = { id: '0193a6f0-0000-7000-8000-000000000001', totalExact: '5', expiresAt: '2026-12-09T10:00:00.000Z' };

describe('the approval form', () => {
  it('starts with the terms asked for and grants them as asked: no total, no expiry sent', () => {
    const form = initialApprovalForm(request);
    expect(form).toEqual({ total: '5', expiresAt: toLocalInput(request.expiresAt), note: '', allPayments: false, reserve: false });
    expect(approvalInput('tok', request, form, NOW)).toEqual({ ok: true, input: { token: 'tok', sessionId: request.id, approve: true } });
  });

  it('grants less and sooner, with a note', () => {
    const sooner = toLocalInput('2026-12-08T10:00:00.000Z');
    const result = approvalInput('tok', request, { total: '$2.50', expiresAt: sooner, note: '  Enough  ', allPayments: false, reserve: false }, NOW);
    expect(result).toEqual({ ok: true, input: { token: 'tok', sessionId: request.id, approve: true, totalUsd: '2.50', expiresAt: new Date(sooner).toISOString(), note: 'Enough' } });
  });

  it('refuses more than asked, a later or past expiry, and amounts that are not dollars', () => {
    const later = toLocalInput('2026-12-10T10:00:00.000Z');
    expect(approvalInput('tok', request, { total: '5.000001', expiresAt: later, note: '', allPayments: false, reserve: false }, NOW)).toEqual({
      ok: false,
      errors: { total: 'You can grant at most the $5 asked for', expiresAt: 'The budget can end sooner than asked, not later' },
    });
    const past = toLocalInput('2026-12-06T10:00:00.000Z');
    expect(approvalInput('tok', request, { total: 'abc', expiresAt: past, note: '', allPayments: false, reserve: false }, NOW)).toMatchObject({ ok: false, errors: { total: expect.stringContaining('positive amount'), expiresAt: 'Choose a time in the future' } });
    expect(approvalInput('tok', request, { total: '0', expiresAt: toLocalInput(request.expiresAt), note: '', allPayments: false, reserve: false }, NOW).ok).toBe(false);
    expect(toUnits('1,000.5')).toBe(1_000_500_000n);
    expect(toUnits('1.1234567')).toBeNull();
  });

  it('grants for all the agent\'s payments, set aside, only when the owner ticks them', () => {
    const form = { ...initialApprovalForm(request), allPayments: true, reserve: true };
    expect(approvalInput('tok', request, form, NOW)).toEqual({ ok: true, input: { token: 'tok', sessionId: request.id, approve: true, allPayments: true, reserve: true } });
    expect(rejectionInput('tok', request, { ...form, note: 'No' })).toEqual({ ok: true, input: { token: 'tok', sessionId: request.id, approve: false, note: 'No' } });
  });

  it('rejects only with a note', () => {
    const form = initialApprovalForm(request);
    expect(rejectionInput('tok', request, form)).toEqual({ ok: false, errors: { note: expect.stringContaining('Say why') } });
    expect(rejectionInput('tok', request, { ...form, total: '1', note: 'Use the free one' })).toEqual({ ok: true, input: { token: 'tok', sessionId: request.id, approve: false, note: 'Use the free one' } });
  });

  it('reads each refusal of the link from its code', () => {
    const refusal = (appCode: string) => Object.assign(new Error('x'), { data: { appCode } });
    expect(linkProblemOf(refusal('APPROVAL_LINK_USED'))).toBe('used');
    expect(linkProblemOf(refusal('APPROVAL_LINK_EXPIRED'))).toBe('expired');
    expect(linkProblemOf(refusal('NOT_FOUND'))).toBe('notFound');
    expect(linkProblemOf(refusal('CONFLICT'))).toBe('decided');
    expect(linkProblemOf(refusal('VALIDATION_FAILED'))).toBeNull();
    expect(linkProblemOf(new Error('Failed to fetch'))).toBeNull();
  });
});
