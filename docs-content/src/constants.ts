/** Fixed names the content and the pages that show it share. */

/** The 11 blog posts (spec section 2), in the order of the brief that commissioned them. */
export const BLOG_POST_IDS = [
  'agentic-commerce-101',
  'demystifying-x402',
  'behind-acp',
  'ap2-rumors',
  'micropayments-ai',
  'instant-checkout',
  'incumbent-payments',
  'hybrid-money-flows',
  'agent-wallet-security',
  'future-casting-agentic-economy',
  'agent-identity-kya',
] as const;
export type BlogPostId = (typeof BLOG_POST_IDS)[number];

/** The docs sections, in the order /docs shows them (spec section 2). */
export const DOC_SECTION_IDS = ['introduction', 'getting-started', 'dashboard', 'mcp-api', 'x402', 'sdk', 'n8n', 'governance', 'workflows'] as const;
export type DocSectionId = (typeof DOC_SECTION_IDS)[number];

/** Posts are dated within this span (spec section 2: Sept 10 to Oct 18 2025), inclusive. */
export const BLOG_DATE_RANGE = { first: 'Sep 10, 2025', last: 'Oct 18, 2025' } as const;

/**
 * The external scheduling page behind "Request Sandbox", "Request a copy" and the workshop
 * buttons. A placeholder until the real booking page exists; `.example` never resolves.
 */
export const BOOKING_URL = 'https://booking.purser.example/intro-call';

/** Contact addresses named by the pages (placeholders on the reserved `.example` domain). */
export const CONTACT_EMAILS = {
  support: 'support@purser.example',
  privacy: 'privacy@purser.example',
  security: 'security@purser.example',
  legal: 'legal@purser.example',
  responsibleAi: 'responsible-ai@purser.example',
} as const;

/** The responsible-AI page's Slack channel (spec: "a Slack channel"). */
export const RESPONSIBLE_AI_SLACK_CHANNEL = '#purser-responsible-ai';

/** Public routes of spec section 2 that content may link to. */
export const PUBLIC_ROUTES = ['/', '/auth', '/dashboard', '/blog', '/docs', '/status', '/responsible-ai', '/terms', '/privacy', '/dpa'] as const;

/** Anchors of pages whose sections are not in this workspace (spec section 2). */
export const FIXED_ROUTE_ANCHORS: Readonly<Record<string, readonly string[]>> = {
  '/': ['flow', 'start-building'],
  '/docs': DOC_SECTION_IDS,
};
