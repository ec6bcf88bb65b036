// The 'Go through the walls' card (product spec section 2, item 3): four walls agents hit
// today, each with how Purser gets through it. Every "through" states something built.

export interface Wall {
  id: 'robot-blockers' | 'payment-rails' | 'identity' | 'integrations';
  title: string;
  /** The wall: why agents get stuck there. */
  wall: string;
  /** How Purser goes through it, true to what is built. */
  through: string;
}

export const WALLS: readonly Wall[] = [
  {
    id: 'robot-blockers',
    title: 'Robot blockers',
    wall: 'Sign-up forms, CAPTCHAs and card checkouts are built to keep software out, so an agent stalls the moment a service wants to be paid.',
    through:
      'With x402 the price travels inside the HTTP exchange: the seller answers 402, Purser pays it in USDC within the agent’s limits, and the agent gets the resource, with no account or checkout page in between.',
  },
  {
    id: 'payment-rails',
    title: 'Payment rails not built for agents',
    wall: 'Card minimums, fees and settlement measured in days make sub-cent, per-request payments impossible, and a card number handed to an agent has no limits of its own.',
    through:
      'Every payment is a payment intent with a rail chosen for it: Purser’s instant ledger, x402 in USDC on Base, or the card, bank-transfer and Solana rails that run as sandboxes today. Amounts are exact to six decimals, so a $0.005 call is a real price.',
  },
  {
    id: 'identity',
    title: 'Identity too heavy or too weak',
    wall: 'Full KYC for every bot is too heavy, and a shared API key is too weak: nobody can tell which agent paid, or for whom.',
    through:
      'Each agent gets its own DID, keys and an SD-JWT verifiable credential stating its know-your-agent tier. The tiers, mapped to eIDAS levels of assurance, cap what an agent may spend on its own until its owner raises them.',
  },
  {
    id: 'integrations',
    title: 'Brittle integrations',
    wall: 'Glue code per provider and per tool breaks with every change, and a retried request can pay twice.',
    through:
      'One agent API, served as REST and as an MCP server with the same operations, described in an OpenAPI document. Idempotency keys make a retry return the first payment, and signed webhooks report each payment’s progress, retried for up to 25 hours.',
  },
];
