// The landing page's use cases (product spec section 1 and section 2, item 8), each told in
// terms of what the product does today.

export interface UseCase {
  id: 'paid-apis' | 'data-compute' | 'automations' | 'subscriptions' | 'fleets';
  title: string;
  text: string;
  /** The product features the use case relies on, shown as tags. */
  uses: readonly string[];
}

export const USE_CASES: readonly UseCase[] = [
  {
    id: 'paid-apis',
    title: 'APIs and data, paid per call',
    text: 'Your agent calls a paid endpoint, receives a 402 with the price and gets the response once Purser has paid it in USDC: one call to x402 fetch, with a price cap you set. Try it on the sandbox’s own paid API, where a weather report costs $0.01.',
    uses: ['x402', 'USDC', 'MCP tools'],
  },
  {
    id: 'data-compute',
    title: 'Compute and inference',
    text: 'Buy inference, GPU time or data sets with payment intents that carry a category and metadata, limited to the merchants and categories you allow. Larger purchases wait for your approval.',
    uses: ['Payment intents', 'Allow-lists', 'Approvals'],
  },
  {
    id: 'automations',
    title: 'n8n and Make automations',
    text: 'Point an n8n or Make workflow at the agent’s REST or MCP endpoint with its DID and API key: check the balance, make a payment and read the transactions from any step.',
    uses: ['REST', 'MCP', 'Agent API keys'],
  },
  {
    id: 'subscriptions',
    title: 'SaaS and subscriptions',
    text: 'Let an agent pay for the tools your team relies on within a monthly budget and a list of approved merchants, and get a webhook when each payment settles.',
    uses: ['Monthly budgets', 'Webhooks'],
  },
  {
    id: 'fleets',
    title: 'Team budgets for agent fleets',
    text: 'Give every agent in a fleet its own wallet, spending rules and KYA tier, add owner-wide policies on top, and try a new policy in shadow mode before you enforce it.',
    uses: ['Spending rules', 'Policies', 'Audit log'],
  },
];
