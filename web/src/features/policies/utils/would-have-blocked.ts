// Why a shadow policy would have refused a payment: the payment's policy decision records, per
// shadow policy, what it would have decided (by name and version, since every version of the
// policy counts), and the rules of that version that fired.

/** The parts of a payment's policy decision (intents' policyDecision) read here. */
export interface RecordedDecision {
  fired: { outcome: 'deny' | 'require_approval'; message: string; policyId?: string; shadow: boolean }[];
  shadow: { policyId: string; name: string; version: number; decision: 'allow' | 'require_approval' | 'deny' }[];
}

export interface BlockReason {
  /** The policy version whose verdict it was. */
  version: number | null;
  /** The refusing rules' messages, with the figures; empty when the decision kept none. */
  messages: string[];
}

export function blockReason(decision: RecordedDecision | null, policyName: string): BlockReason {
  const verdict = decision?.shadow.find((entry) => entry.name === policyName && entry.decision === 'deny');
  if (!decision || !verdict) return { version: null, messages: [] };
  const messages = decision.fired.filter((rule) => rule.shadow && rule.policyId === verdict.policyId && rule.outcome === 'deny').map((rule) => rule.message);
  return { version: verdict.version, messages };
}
