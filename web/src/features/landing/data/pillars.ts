// The five value pillars of the landing page (product spec section 2, item 4), each with one
// fact that backs it up in the built product.

export interface Pillar {
  id: 'wallets' | 'identity' | 'controls' | 'rails' | 'audit';
  title: string;
  text: string;
  /** A short fact from the product, shown under the text. */
  proof: string;
}

export const PILLARS: readonly Pillar[] = [
  {
    id: 'wallets',
    title: 'A wallet for every agent',
    text: 'You keep a custodial primary wallet in USDC and USDT and fund each agent’s own wallet from it, so one agent’s spending never touches another’s.',
    proof: 'Top up, fund and follow every agent from one dashboard',
  },
  {
    id: 'identity',
    title: 'Verifiable identity',
    text: 'Agents carry a DID and a verifiable credential that any service can check, with know-your-agent tiers that grow with the evidence behind them.',
    proof: 'did:agnic DIDs and SD-JWT VC credentials',
  },
  {
    id: 'controls',
    title: 'Spending rules that hold',
    text: 'Per-payment maximums, rolling daily limits, monthly budgets, merchant, category and country rules, time windows and owner approvals, all checked before any money moves.',
    proof: 'Every refusal names the rule that fired',
  },
  {
    id: 'rails',
    title: 'Open rails, one API',
    text: 'Pay over x402 in USDC, on Purser’s instant ledger, or through the card, bank and Solana sandbox rails, from the same payment intent.',
    proof: 'One payment intent behind every rail',
  },
  {
    id: 'audit',
    title: 'An audit trail by default',
    text: 'Every intent, decision, approval and settlement is written to an append-only, hash-chained audit log that can be exported and verified.',
    proof: 'A balanced ledger that never edits an entry',
  },
];
