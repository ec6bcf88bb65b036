/** One run of each operation of the Purser node, with the answer its endpoint gives (for the unit tests). */
import type { IDataObject } from 'n8n-workflow';

export const INTENT_ID = '2f0c4a4e-8f0e-4f7b-9a51-0c6c1b7e9d3a';
export const AGENT_ID = '0423e163-2809-4879-a27c-66df3ed4aa66';
export const SESSION_ID = '7d7bdf1e-33b6-4a0e-9a39-1f0c2f3b5b11';
export const PAYMENT = { intent_id: INTENT_ID, status: 'settled', amount: 1.25, amount_exact: '1.25', currency: 'USDC' };

/** An agent's budget as GET /budget/{session_id} answers it (agentPaymentSessionView). */
export const AGENT_BUDGET = {
  session_id: SESSION_ID,
  status: 'open',
  total: 3,
  total_exact: '3',
  per_payment_max: null,
  per_payment_max_exact: null,
  spent: 1,
  spent_exact: '1',
  remaining: 2,
  remaining_exact: '2',
  scope: {},
  expires_at: '2026-12-31T00:00:00.000Z',
  reason: 'Market data for the weekly report',
  decision_note: null,
  closed_reason: null,
  created_at: '2026-12-01T00:00:00.000Z',
  message: 'Open: pass session_id with each payment.',
};
/** The same budget as the owner API answers it (paymentSessionView). */
export const OWNER_BUDGET = { id: SESSION_ID, agentId: AGENT_ID, status: 'open', requestedBy: 'agent', total: 3, totalExact: '3', spent: 1, remaining: 2 };
const EXPIRES = '2026-12-31T00:00:00Z';

/** By `resource.operation`. */
export const EXAMPLES: Record<string, { parameters: IDataObject; answer: unknown }> = {
  'agent.get': { parameters: {}, answer: { did: 'did:agnic:x' } },
  'agent.resume': { parameters: { agent: `did:agnic:${AGENT_ID}` }, answer: { id: AGENT_ID, status: 'active' } },
  'agent.suspend': { parameters: { agent: AGENT_ID }, answer: { id: AGENT_ID, status: 'suspended' } },
  'budget.get': { parameters: { sessionId: SESSION_ID }, answer: AGENT_BUDGET },
  'budget.getAll': { parameters: {}, answer: { budgets: [AGENT_BUDGET] } },
  'budget.getAllAsOwner': { parameters: { filters: { status: 'requested' } }, answer: { sessions: [OWNER_BUDGET] } },
  'budget.getAsOwner': { parameters: { sessionId: SESSION_ID }, answer: OWNER_BUDGET },
  'budget.grant': { parameters: { sessionId: SESSION_ID, options: { total: 3 } }, answer: OWNER_BUDGET },
  'budget.open': { parameters: { agent: AGENT_ID, total: 5, expiresAt: EXPIRES, options: {} }, answer: OWNER_BUDGET },
  'budget.rejectRequest': { parameters: { sessionId: SESSION_ID, note: 'Not this week' }, answer: { ...OWNER_BUDGET, status: 'rejected' } },
  'budget.request': {
    parameters: { total: 5, expiresAt: EXPIRES, reason: 'Market data for the weekly report', options: {} },
    answer: { ...AGENT_BUDGET, status: 'requested', spent: 0, remaining: 5, approval_url: 'https://purser.test/approve/abc' },
  },
  'budget.revoke': { parameters: { sessionId: SESSION_ID }, answer: { ...OWNER_BUDGET, status: 'closed' } },
  'paidRequest.fetch': {
    parameters: { url: 'https://seller.test/paid', maxAmount: 0.02, method: 'GET', options: {} },
    answer: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'hello', body_encoding: 'utf8', payment: null, payment_response: null },
  },
  'paidRequest.getPrice': {
    parameters: { url: 'https://seller.test/paid', method: 'GET' },
    answer: { url: 'https://seller.test/paid', payment_required: true, status: 402, recommended: { amount: '10000' }, accepts: [] },
  },
  'payment.approve': { parameters: { intentId: INTENT_ID, reason: 'ok' }, answer: { id: INTENT_ID, status: 'approved' } },
  'payment.create': { parameters: { amount: 1.25, toAddress: '0xabc', currency: 'USDC', options: {} }, answer: PAYMENT },
  'payment.get': { parameters: { lookUpBy: 'intentId', intentId: INTENT_ID }, answer: PAYMENT },
  'payment.getPending': { parameters: { returnAll: false, limit: 10, filters: {} }, answer: { intents: [{ id: INTENT_ID }], nextCursor: null } },
  'payment.reject': { parameters: { intentId: INTENT_ID }, answer: { id: INTENT_ID, status: 'rejected' } },
  'transaction.getAll': { parameters: { returnAll: false, limit: 5 }, answer: { transactions: [{ id: 't1' }] } },
  'wallet.getBalance': { parameters: {}, answer: { balances: {} } },
};


/** Purser's 202 for a paid request whose payment waits for the owner (x402SignedPaymentView): the seller was not called. */
export const WAITING_FOR_APPROVAL = {
  intent_id: INTENT_ID,
  status: 'pending_approval',
  xPaymentHeader: null,
  x_payment_header: null,
  header_name: 'PAYMENT-SIGNATURE',
  x402_version: 2,
  amount: 0.5,
  amount_exact: '0.5',
  pay_to: '0x00000000000000000000000000000000000000aa',
  network: 'eip155:84532',
  valid_before: null,
  message: 'The payment waits for the owner to approve it; repeat this call with the same Idempotency-Key afterwards to get the header.',
};
