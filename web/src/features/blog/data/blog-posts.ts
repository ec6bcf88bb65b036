// The blog's article ids and working titles. The articles themselves (dates, intros,
// bodies, graphics, and the eleventh post) come from the docs-content workspace in the
// content work; until then this list lets /blog/:postId tell known ids from unknown ones.
export interface BlogPostSummary {
  id: string;
  title: string;
}

export const blogPosts: readonly BlogPostSummary[] = [
  { id: 'agentic-commerce-101', title: 'Agentic Commerce 101' },
  { id: 'demystifying-x402', title: 'Demystifying x402' },
  { id: 'behind-acp', title: 'Behind ACP' },
  { id: 'ap2-rumors', title: 'AP2 Rumors' },
  { id: 'micropayments-ai', title: 'Micropayments and AI' },
  { id: 'instant-checkout', title: 'Instant Checkout' },
  { id: 'incumbent-payments', title: 'Incumbent Payments' },
  { id: 'hybrid-money-flows', title: 'Hybrid Money Flows' },
  { id: 'agent-wallet-security', title: 'Agent Wallet Security' },
  { id: 'future-casting-agentic-economy', title: 'Future-Casting the Agentic Economy' },
];

export function findBlogPost(id: string | undefined): BlogPostSummary | undefined {
  return blogPosts.find((post) => post.id === id);
}
