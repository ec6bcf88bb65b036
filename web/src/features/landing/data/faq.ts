// The landing page's FAQ (product spec section 2, item 10: four questions). Answers state
// what the product does; figures are the spec's defaults (section 9).

export interface FaqEntry {
  id: 'access' | 'networks' | 'spending-rules' | 'secrets';
  question: string;
  /** Paragraphs of the answer. */
  answer: readonly string[];
}

export const FAQ: readonly FaqEntry[] = [
  {
    id: 'access',
    question: 'How do I get access?',
    answer: [
      'Purser is invite-only for now. Book an intro call with Request Sandbox: you receive sandbox credentials and an invitation code, and create your account with it under Sign Up, behind the Dashboard button.',
      'The sandbox moves no real money: it runs a local test chain with test USDC, and its card, bank-transfer and Solana rails are simulators.',
    ],
  },
  {
    id: 'networks',
    question: 'Which networks and currencies are supported?',
    answer: [
      'Wallets hold USDC and USDT. x402 payments are made in USDC on Base, with Base Sepolia as the test network; an agent’s wallet there needs test USDC and a little ETH for gas.',
      'In the sandbox, funding an agent mints it test USDC and gas on a local chain that uses Base Sepolia’s chain id and Circle’s USDC contract.',
    ],
  },
  {
    id: 'spending-rules',
    question: 'How do spending rules stop an agent?',
    answer: [
      'Every payment passes a policy and KYA gate before anything is signed or moved: the agent’s maximum per transaction (100 dollars by default), its daily limit over the last 24 hours (1,000 dollars by default), your policies and the caps of its KYA tier.',
      'A payment that breaks a rule is blocked and the refusal names the rule, for example DAILY_LIMIT_EXCEEDED. One above your approval threshold waits for you to approve it. Suspending an agent stops it at once and cancels the x402 authorisations it has not redeemed.',
    ],
  },
  {
    id: 'secrets',
    question: 'How are keys and secrets kept?',
    answer: [
      'API keys are shown once, when they are created or rotated, and only their SHA-256 hashes are stored; rotating an agent’s key revokes the old one.',
      'Agents’ signing keys and webhook secrets are encrypted at rest with AES-256-GCM and used only inside Purser, and your session tokens live in httpOnly cookies that page scripts cannot read.',
    ],
  },
];
