// The protocol navigator's twelve standards (product spec section 2), in the spec's order.
// "How Purser supports it" must stay true to what this repository builds: each entry names
// where the support lives in a comment, so a change there is easy to carry over here.

/** supported: built and usable; partial: built with a stated limit; planned: not built yet. */
export type ProtocolStatus = 'supported' | 'partial' | 'planned';

export const PROTOCOL_STATUS_LABELS: Readonly<Record<ProtocolStatus, string>> = {
  supported: 'Supported',
  partial: 'Partial',
  planned: 'Planned',
};

export interface Protocol {
  /** Stable id, used for element ids and test ids. */
  id: string;
  /** The chip's label, as the spec spells it. */
  name: string;
  /** What kind of standard it is, in a few words. */
  kind: string;
  /** What the standard is, independent of Purser. */
  summary: string;
  /** How Purser supports it today, or plainly that it does not yet and what exists instead. */
  support: string;
  status: ProtocolStatus;
  /** An internal page that says more (a docs section or a blog post). */
  learnMore?: { label: string; to: string };
}

/** The spec's chip order. */
export const PROTOCOL_NAMES = ['X402', 'AP2', 'A2A', 'ACP', 'MCP', 'DID', 'Solana', 'Base', 'EVM', 'USDC', 'eIDAS', 'SD-JWT VC'] as const;

/** Never empty: the navigator opens on the first. */
export const PROTOCOLS: readonly [Protocol, ...Protocol[]] = [
  {
    // server/src/services/paid-calls (its README), docs/agent-api.md
    id: 'x402',
    name: 'X402',
    kind: 'Payments over HTTP',
    summary:
      'An open protocol that puts HTTP 402 Payment Required to work: a seller answers a request with its price, the buyer retries with a signed stablecoin payment, and a facilitator settles it on chain before the resource is returned.',
    support:
      'Agents pay x402 sellers through the agent API and MCP tools: read the requirements, sign, forward, or all three in one fetch call with a price cap. Purser speaks the v1 and v2 headers and signs only the exact scheme in USDC (an EIP-3009 authorisation) after spending rules, policies and KYA caps have passed, with a validity window of minutes, then follows the authorisation on chain until it settles or expires.',
    status: 'supported',
    learnMore: { label: 'x402 in the docs', to: '/docs#x402' },
  },
  {
    // Not built: no mandate types or AP2 endpoints anywhere in server/ or core/.
    id: 'ap2',
    name: 'AP2',
    kind: 'Agent payment mandates',
    summary:
      'The Agent Payments Protocol, published by Google in 2025: signed mandates, carried as verifiable credentials, record what a user authorised an agent to buy, so merchants and payment providers can check it.',
    support:
      'Not supported yet: Purser neither issues nor verifies AP2 mandates. What exists instead: every payment is a payment intent with its purpose and metadata, checked against the owner’s spending rules and policies and, above the approval threshold, approved by the owner, all recorded in the audit log.',
    status: 'planned',
    learnMore: { label: 'Read: AP2, what was announced', to: '/blog/ap2-rumors' },
  },
  {
    // Not built: no Agent Card or A2A endpoint; agents reach Purser over REST and MCP only.
    id: 'a2a',
    name: 'A2A',
    kind: 'Agent-to-agent messaging',
    summary:
      'The Agent2Agent protocol, started by Google and now at the Linux Foundation: agents publish Agent Cards so other agents can discover them, then exchange messages and tasks.',
    support:
      'Not supported yet: Purser publishes no Agent Card and has no A2A endpoint. Today agents reach Purser over its REST agent API and its MCP server, and each agent’s DID document lists that API as its service, so other parties can find it.',
    status: 'planned',
    learnMore: { label: 'Read: future-casting the agentic economy', to: '/blog/future-casting-agentic-economy' },
  },
  {
    // Not built: no checkout sessions or delegated payment tokens; card rail is a simulator.
    id: 'acp',
    name: 'ACP',
    kind: 'Agentic checkout',
    summary:
      'The Agentic Commerce Protocol from OpenAI and Stripe: an agent completes a checkout with a merchant through the merchant’s checkout API, paying with a delegated, single-use payment token, while the merchant stays the merchant of record.',
    support:
      'Not supported yet: Purser exposes no ACP checkout API and issues no delegated payment tokens. What exists instead: payment intents that name the merchant, and card and bank-transfer rails that run as sandbox simulators (no real card network is connected).',
    status: 'planned',
    learnMore: { label: 'Read: Behind ACP', to: '/blog/behind-acp' },
  },
  {
    // server/src/http/agent-api/mcp-tools.ts, streamable HTTP at /functions/v1/mcp-server/mcp
    id: 'mcp',
    name: 'MCP',
    kind: 'Tools for AI models',
    summary:
      'The Model Context Protocol: an open protocol through which AI applications and agents discover and call tools and data sources.',
    support:
      'Purser runs an MCP server over Streamable HTTP with eight tools: balance, payment, transactions, agent info and four x402 tools. Each call carries the agent’s DID and API key; expected failures come back as tool errors with the same codes as the REST API. The agent connect page shows the setup for n8n, Make or any MCP client.',
    status: 'supported',
    learnMore: { label: 'MCP and the API in the docs', to: '/docs#mcp-api' },
  },
  {
    // server/src/services/identity (resolve-did.ts, agent-keys.ts), core/src/did.ts
    id: 'did',
    name: 'DID',
    kind: 'Decentralized identifiers',
    summary:
      'Decentralized Identifiers, a W3C standard: an identifier that resolves to a document listing the keys and services of whoever it names, without a central registry.',
    support:
      'Every agent gets a did:agnic DID with its own Ed25519 identity key and an EVM key. The DIDs resolve in Universal Resolver format, and a deleted agent’s DID resolves as deactivated; the platform publishes its own did:web document. A DID only names an agent: its API key, stored as a hash, proves it.',
    status: 'supported',
    learnMore: { label: 'Read: agent identity and KYA', to: '/blog/agent-identity-kya' },
  },
  {
    // server/src/services/rails/solana-rail.ts (LiteSVM in process)
    id: 'solana',
    name: 'Solana',
    kind: 'Blockchain',
    summary: 'A high-throughput public blockchain whose tokens, stablecoins included, follow the SPL token standard and settle in seconds.',
    support:
      'A sandbox rail: payment intents can settle as real SPL token transfers of USDC or USDT, with the intent id in a memo, on a Solana runtime that runs inside Purser (LiteSVM). It is not connected to Solana devnet or mainnet yet, and moves sandbox tokens only.',
    status: 'partial',
  },
  {
    // server/src/services/chain (sandbox anvil with chain id 84532), env EVM_NETWORK
    id: 'base',
    name: 'Base',
    kind: 'Ethereum layer 2',
    summary: 'An Ethereum layer-2 network incubated by Coinbase, with low fees and native USDC; Base Sepolia is its test network.',
    support:
      'Base is where agents’ x402 payments settle. The sandbox runs a local chain with Base Sepolia’s chain id and Circle’s USDC contract at the Base Sepolia USDC address; a deployment can point at Base Sepolia or Base instead. Funding an agent in the sandbox also mints it test USDC and gas ETH.',
    status: 'supported',
  },
  {
    // server/src/services/identity/agent-keys.ts (secp256k1), services/chain/evm-chain.ts
    id: 'evm',
    name: 'EVM',
    kind: 'Smart-contract runtime',
    summary: 'The Ethereum Virtual Machine: the execution environment, address format and signing scheme shared by Ethereum and many other chains.',
    support:
      'Each agent has an EVM address of its own, listed in its DID document, and its key is encrypted at rest and used only inside Purser to sign EIP-712 typed data for EIP-3009 USDC transfers. The supported networks are Base and Base Sepolia; other EVM chains are not configured.',
    status: 'partial',
  },
  {
    // ledger currencies (core/src/money.ts), sandbox FiatTokenV2_2 (services/chain/sandbox/sandbox-contracts.ts)
    id: 'usdc',
    name: 'USDC',
    kind: 'Stablecoin',
    summary: 'A dollar-backed stablecoin issued by Circle, with 6 decimals, available on many blockchains.',
    support:
      'Wallets hold USDC and USDT, with amounts kept exactly to 6 decimals. x402 payments are made in USDC, and the sandbox deploys Circle’s own USDC contract (FiatTokenV2_2) on its local chain, so test payments behave as they would on Base Sepolia.',
    status: 'supported',
  },
  {
    // core/src/kya.ts (tiers and eIDAS levels), services/agents/request-kya-escalation.ts (sandbox verifier)
    id: 'eidas',
    name: 'eIDAS',
    kind: 'EU regulation',
    summary:
      'The EU regulation on electronic identification and trust services. It defines the levels of assurance low, substantial and high, and is the basis of the EU Digital Identity Wallet.',
    support:
      'Know-your-agent tiers map onto the eIDAS levels of assurance: pseudonymous (none), basic (low), moderate (substantial) and high. Each tier caps what an agent may spend on its own, and owners raise a tier with evidence. The verifier is a sandbox: Purser is not an eIDAS trust service and connects to no eID scheme or EU Digital Identity Wallet.',
    status: 'partial',
    learnMore: { label: 'Read: agent identity and KYA', to: '/blog/agent-identity-kya' },
  },
  {
    // server/src/services/identity (issue-agent-credential.ts, build-agent-status-list.ts, verify-agent-credential.ts)
    id: 'sd-jwt-vc',
    name: 'SD-JWT VC',
    kind: 'Verifiable credential format',
    summary:
      'Verifiable credentials as Selective Disclosure JWTs, an IETF format: the holder can reveal some claims and withhold others, and a verifier checks the issuer’s signature and the credential’s status.',
    support:
      'Every agent holds an SD-JWT VC signed by Purser (EdDSA) about its DID. Its KYA tier and status are always visible; its owner and spending rules can be disclosed selectively. Revocation uses a token status list, anyone can verify a credential through a public endpoint, and changing an agent’s rules or tier re-issues it.',
    status: 'supported',
  },
];
