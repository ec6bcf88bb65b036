// 'How an Agent Pays' (product spec section 2, item 5): the five steps of the payment workflow
// and the parts of the diagram, each with the modules it shows on hover or focus. Everything
// here describes the product as built (docs/payments.md, docs/rails.md, docs/webhooks.md).
// Positions are plain data so the diagram's two layouts can be checked without a browser.

export interface FlowStep {
  title: string;
  text: string;
}

export const FLOW_STEPS: readonly FlowStep[] = [
  {
    title: 'Payment Intent',
    text: 'The agent (over REST, MCP or n8n) or its owner states what to pay: amount, currency, merchant, purpose, an optional KYA tier and country, with an idempotency key. The intent and its audit entry are written in one transaction and a durable Temporal workflow starts.',
  },
  {
    title: 'Policy and KYA Gate',
    text: 'Spending rules, owner policies (categories, merchants, countries, time windows) and the caps of the agent’s KYA tier decide: allow, wait for the owner’s approval within the time box, or refuse with policy.violation.',
  },
  {
    title: 'Rail Orchestrator',
    text: 'The intent’s rail is quoted and checked: the instant internal ledger by default, x402 on Base, or the Solana, card and bank sandbox rails.',
  },
  {
    title: 'Execute and Settle',
    text: 'Funds are reserved as a hold on the agent’s wallet, the rail executes once per intent, and the hold is captured when the rail settles or released when it declines or the payment fails.',
  },
  {
    title: 'Audit and Telemetry',
    text: 'Every step lands in an append-only, hash-chained audit log; the workflow’s progress can be queried live, and signed webhooks announce intent.created, intent.approved, settlement.completed and policy.violation.',
  },
];

export type FlowNodeId =
  | 'owner-wallet'
  | 'agent-wallet'
  | 'orchestrator'
  | 'rail-ledger'
  | 'rail-x402'
  | 'rail-solana'
  | 'rail-card'
  | 'rail-bank'
  | 'seller'
  | 'facilitator';

export interface FlowPart {
  id: FlowNodeId;
  title: string;
  /** One line under the title inside the node. */
  caption: string;
  description: string;
  modules: readonly string[];
  /** Simulators and test chains: no real money moves there. */
  sandbox?: boolean;
  /** Drawn inside the payment rails group. */
  rail?: boolean;
}

export const FLOW_PARTS: readonly FlowPart[] = [
  {
    id: 'owner-wallet',
    title: 'Owner wallet',
    caption: 'USDC and USDT',
    description: 'Your custodial primary wallet on Purser’s double-entry ledger. You top it up and fund your agents from it.',
    modules: ['USDC and USDT balances', 'Top-up from the sandbox funding source', 'Funding of each agent’s wallet', 'Balances that can never go below zero'],
  },
  {
    id: 'agent-wallet',
    title: 'Agent wallets',
    caption: 'Own wallet and DID',
    description: 'Each agent pays from its own wallet, never from another agent’s, within the rules its owner set.',
    modules: [
      'Balance in USDC and USDT',
      'Holds: funds reserved for payments in flight',
      'Spending rules: per-transaction maximum and daily limit',
      'DID and verifiable credential with its KYA tier',
      'EVM address on Base, its key encrypted at rest',
    ],
  },
  {
    id: 'orchestrator',
    title: 'Rail orchestrator',
    caption: 'Temporal workflow',
    description: 'A Temporal workflow per intent takes it from the gate to settlement and survives restarts.',
    modules: [
      'Policy gate: spending rules and owner policies',
      'KYA tier: caps and the tier the intent asks for',
      'Approval: waits for the owner within the time box',
      'Rail choice: the intent’s rail, quoted and checked',
      'Hold, then capture or release',
    ],
  },
  {
    id: 'rail-ledger',
    title: 'Ledger',
    caption: 'Default, instant',
    description: 'A transfer inside Purser’s custodial ledger: settled the moment it is recorded.',
    modules: ['Instant settlement', 'No network fee', 'USDC and USDT'],
    rail: true,
  },
  {
    id: 'rail-x402',
    title: 'x402 on Base',
    caption: 'EIP-3009 USDC',
    description: 'Pays a seller’s HTTP 402 answer with an EIP-3009 authorisation signed by the agent’s own EVM key.',
    modules: [
      'Priced once from the seller’s requirement',
      'Signed authorisation decoded and checked before it leaves',
      'Valid for 5 minutes at most by default',
      'Cancelled on chain when a payment ends early',
    ],
    rail: true,
  },
  {
    id: 'rail-solana',
    title: 'Solana',
    caption: 'SPL tokens',
    description: 'SPL token transfers on an in-process Solana runtime (LiteSVM).',
    modules: ['Sandbox USDC and USDT mints', 'Intent id in a memo', 'Settles when the transaction lands'],
    sandbox: true,
    rail: true,
  },
  {
    id: 'rail-card',
    title: 'Card',
    caption: 'Card network',
    description: 'A card-network simulator: authorised or declined at once, captured automatically, settled by a clearing batch.',
    modules: ['Authorisation with decline codes', 'Automatic capture', 'Asynchronous settlement', 'Minimum 0.50 per payment'],
    sandbox: true,
    rail: true,
  },
  {
    id: 'rail-bank',
    title: 'Bank',
    caption: 'ACH-like transfer',
    description: 'An ACH-like bank transfer simulator: pending until the simulated network settles it or returns it.',
    modules: ['Pending, then settled or returned', 'ACH return codes (R01, R02, ...)', 'Up to 1,000,000 per transfer'],
    sandbox: true,
    rail: true,
  },
  {
    id: 'seller',
    title: 'Seller / paid API',
    caption: 'The payee',
    description: 'A merchant address, or an API that answers HTTP 402 Payment Required with its price.',
    modules: ['Payment requirements: price, asset, payee', 'Accepts the signed payment header', 'Answers with the settlement receipt'],
  },
  {
    id: 'facilitator',
    title: 'x402 facilitator',
    caption: 'Verify · settle',
    description: 'Checks an x402 payment for the seller and submits it on chain; in the sandbox it runs inside Purser over a local Base chain.',
    modules: ['Verify: signature, amount, payee, validity window', 'Settle: transferWithAuthorization on chain', 'Reports the transaction to the seller'],
  },
];

export const RAILS_GROUP_ID = 'rails';
export const RAILS_GROUP_LABEL = 'Payment rails';

export type FlowLayoutName = 'wide' | 'narrow';
type Side = 'top' | 'right' | 'bottom' | 'left';

export interface FlowEdge {
  id: string;
  source: FlowNodeId | typeof RAILS_GROUP_ID;
  target: FlowNodeId | typeof RAILS_GROUP_ID;
  label: string;
}

export const FLOW_EDGES: readonly FlowEdge[] = [
  { id: 'fund', source: 'owner-wallet', target: 'agent-wallet', label: 'fund' },
  { id: 'intent', source: 'agent-wallet', target: 'orchestrator', label: 'intent' },
  { id: 'rail', source: 'orchestrator', target: RAILS_GROUP_ID, label: 'rail' },
  { id: 'pay', source: RAILS_GROUP_ID, target: 'seller', label: 'pay' },
  { id: 'settle', source: 'seller', target: 'facilitator', label: 'verify, settle' },
];

interface EdgeSides {
  from: Side;
  to: Side;
  /** The edge is too short to carry its label. */
  unlabelled?: boolean;
}

export interface FlowLayout {
  nodeWidth: number;
  nodeHeight: number;
  /** Top-left corners; rails are relative to the group's corner. */
  positions: Record<FlowNodeId, { x: number; y: number }>;
  group: { x: number; y: number; width: number; height: number };
  /** Which side of the source and of the target each edge leaves and enters by. */
  sides: Record<string, EdgeSides>;
}

// The wide layout reads left to right; the narrow one (phones) top to bottom in two columns.
export const FLOW_LAYOUTS: Record<FlowLayoutName, FlowLayout> = {
  wide: {
    nodeWidth: 168,
    nodeHeight: 60,
    positions: {
      'owner-wallet': { x: 0, y: 60 },
      'agent-wallet': { x: 0, y: 260 },
      orchestrator: { x: 224, y: 160 },
      'rail-ledger': { x: 16, y: 44 },
      'rail-x402': { x: 16, y: 120 },
      'rail-solana': { x: 16, y: 196 },
      'rail-card': { x: 16, y: 272 },
      'rail-bank': { x: 16, y: 348 },
      seller: { x: 692, y: 110 },
      facilitator: { x: 692, y: 270 },
    },
    group: { x: 440, y: 0, width: 200, height: 424 },
    sides: {
      fund: { from: 'bottom', to: 'top' },
      intent: { from: 'right', to: 'left' },
      rail: { from: 'right', to: 'left' },
      pay: { from: 'right', to: 'left' },
      settle: { from: 'bottom', to: 'top' },
    },
  },
  narrow: {
    nodeWidth: 160,
    nodeHeight: 60,
    positions: {
      'owner-wallet': { x: 0, y: 0 },
      'agent-wallet': { x: 180, y: 0 },
      orchestrator: { x: 90, y: 110 },
      'rail-ledger': { x: 6, y: 40 },
      'rail-x402': { x: 174, y: 40 },
      'rail-solana': { x: 6, y: 112 },
      'rail-card': { x: 174, y: 112 },
      'rail-bank': { x: 90, y: 184 },
      seller: { x: 0, y: 540 },
      facilitator: { x: 180, y: 540 },
    },
    group: { x: 0, y: 220, width: 340, height: 256 },
    sides: {
      fund: { from: 'right', to: 'left', unlabelled: true },
      intent: { from: 'bottom', to: 'top' },
      rail: { from: 'bottom', to: 'top' },
      pay: { from: 'bottom', to: 'top' },
      settle: { from: 'right', to: 'left', unlabelled: true },
    },
  },
};

/** The diagram's height in px per breakpoint, shared by the placeholder and the diagram. */
export const FLOW_DIAGRAM_HEIGHT = { xs: 640, sm: 470 } as const;

export function flowPart(id: string | null): FlowPart | undefined {
  return FLOW_PARTS.find((part) => part.id === id);
}
