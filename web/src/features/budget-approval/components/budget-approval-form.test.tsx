// The approval form as it first renders (server-side rendering, no DOM needed): the agent, its
// reason and the terms asked, the fields filled with them, and the buttons' states. Its choices ->
// paymentSessions.decideByLink's input are tested in utils/approval-form.test.ts.
import type { PaymentSessionApprovalLinkView } from '@purser/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BudgetApprovalForm, type BudgetApprovalFormProps } from './budget-approval-form';

const NOW = new Date('2026-12-07T10:00:00Z');

const LINK: PaymentSessionApprovalLinkView = {
  agentName: 'Research bot',
  linkExpiresAt: '2026-12-07T10:30:00.000Z',
  session: {
    id: '0193a6f0-0000-7000-8000-000000000001',
    agentId: '0193a6f0-0000-7000-8000-000000000002',
    status: 'requested',
    requestedBy: 'agent',
    reason: 'Buy two datasets',
    total: 5,
    totalExact: '5',
    perPaymentMax: 2.5,
    perPaymentMaxExact: '2.5',
    spent: 0,
    spentExact: '0',
    remaining: 5,
    remainingExact: '5',
    scope: { sellers: ['api.example.com'], protocols: ['x402'] },
    expiresAt: '2026-12-09T10:00:00.000Z',
    decisionNote: null,
    closedReason: null,
    createdAt: '2026-12-07T09:59:00.000Z',
    decidedAt: null,
    closedAt: null,
    allPayments: false,
    reserve: false,
    reserved: 0,
    reservedExact: '0',
  },
};

function render(overrides: Partial<BudgetApprovalFormProps> = {}): { html: string; text: string } {
  const html = renderToStaticMarkup(<BudgetApprovalForm token="tok" link={LINK} busy={null} error={null} onDecide={() => {}} now={() => NOW} {...overrides} />);
  const text = html.replace(/<style[^>]*>.*?<\/style>/gs, '').replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');
  return { html, text };
}

const button = (html: string, label: string) => new RegExp(`<button[^>]*>(?:(?!</button>).)*${label}`, 's').exec(html)?.[0] ?? '';

describe('BudgetApprovalForm', () => {
  it('names the agent and shows its reason, the total, the cap per payment and the scope', () => {
    const { text } = render();
    expect(text).toContain('Research bot asks for a budget');
    expect(text).toContain('“Buy two datasets”');
    expect(text).toContain('Total $5.00');
    expect(text).toContain('Per payment At most $2.50');
    expect(text).toContain('Sellers: api.example.com');
    expect(text).toContain('Protocols: x402');
  });

  it('starts from the total asked, with both decisions open', () => {
    const { html } = render();
    expect(html).toMatch(/id="approval-total"[^>]*value="5"|value="5"[^>]*id="approval-total"/);
    expect(button(html, 'Approve')).not.toContain('disabled');
    expect(button(html, 'Reject')).not.toContain('disabled');
  });

  it('a request past its own end has closed: neither decision is offered', () => {
    const { html, text } = render({ now: () => new Date('2026-12-10T00:00:00Z') });
    expect(text).toContain('nothing was granted and there is nothing left to decide');
    expect(button(html, 'Approve')).toContain('disabled');
    expect(button(html, 'Reject')).toContain('disabled');
  });

  it("offers the console's options: all the agent's payments, and setting the budget aside, both off", () => {
    const { html, text } = render();
    expect(text).toContain("Charge all the agent's payments to it");
    expect(text).toContain('Set the total aside now');
    expect(html.match(/type="checkbox"/g)).toHaveLength(2);
    expect(html).not.toMatch(/type="checkbox"[^>]*checked/);
  });

  it('locks both buttons while a decision is on its way, and shows the server’s refusal', () => {
    const { html, text } = render({ busy: 'approve', error: 'This budget request was already decided' });
    expect(text).toContain('Approving...');
    expect(button(html, 'Reject')).toContain('disabled');
    expect(text).toContain('This budget request was already decided');
  });
});
