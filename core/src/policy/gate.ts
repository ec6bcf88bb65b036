// The policy and KYA gate over its JSON inputs (the payment steps' GateInput): the payment
// workflow evaluates it in workflow code, and the server's front of a payment again under the
// wallet lock, through these same two functions. Pure (no I/O, no clock), so it is safe in the
// workflow sandbox.
import type { GateDecision, GateInput } from '../contracts/payment-steps';
import type { KyaTier } from '../kya';
import { evaluatePolicy, type PolicyEvaluation } from './evaluate-policy';
import { policyRulesSchema } from './policy-rules';

/** Evaluates the gate's inputs (amounts as decimal strings, policies in document form) at `at`. */
export function evaluateGate(input: GateInput, at: Date): PolicyEvaluation {
  const rules = input.agent.spendingRules;
  return evaluatePolicy({
    intent: {
      amount: BigInt(input.intent.amount),
      currency: input.intent.currency,
      category: input.intent.category,
      merchant: input.intent.merchant,
      toAddress: input.intent.toAddress,
      merchantVerified: input.intent.merchantVerified,
      country: input.intent.country,
      kyaTier: input.intent.kyaTier as KyaTier | null,
    },
    agent: {
      kyaTier: input.agent.kyaTier as KyaTier,
      spendingRules: {
        maxTransactionAmount: BigInt(rules.maxTransactionAmount),
        maxDailyLimit: BigInt(rules.maxDailyLimit),
        approvalThreshold: rules.approvalThreshold === null ? null : BigInt(rules.approvalThreshold),
      },
    },
    policies: input.policies.map((policy) => ({ ...policy, rules: policyRulesSchema.parse(policy.rules) })),
    usage: { spentInWindow: BigInt(input.usage.spentInWindow), spentThisMonth: BigInt(input.usage.spentThisMonth) },
    at,
    timeZone: input.timeZone,
  });
}

/** The evaluation as it is recorded on the intent (policyDecision): JSON, shadow results summarised. */
export function toGateDecision(evaluation: PolicyEvaluation, at: Date): GateDecision {
  return {
    decision: evaluation.decision,
    fired: evaluation.fired,
    shadow: evaluation.shadow.map(({ policyId, name, version, decision }) => ({ policyId, name, version, decision })),
    timeBoxMs: evaluation.timeBoxMs,
    evaluatedAt: at.toISOString(),
  };
}
