// The policy and KYA gate: the policy engine over the inputs the front of a payment loads
// (GateInput), and its result as the intent records it. Pure (no I/O, no clock).
import type { GateDecision, GateInput, GateInputJson } from '../contracts/payment-steps';
import type { KyaTier } from '../kya';
import { evaluatePolicy, type PolicyEvaluation } from './evaluate-policy';
import { policyRulesToDocument } from './policy-document';
import { policyRulesSchema } from './policy-rules';

/** Evaluates the gate's inputs at `at`. */
export function evaluateGate({ intent, agent, policies, usage, connection, session, timeZone }: GateInput, at: Date): PolicyEvaluation {
  return evaluatePolicy({ intent, agent, policies, usage, connection, session, timeZone, at });
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

// ------------------------------------------------------------ before 'one-front'
// Runs recorded before the payment workflow's 'one-front' patch load the gate's inputs as JSON
// (loadGate) and evaluate them in workflow code. These two carry the inputs across that edge;
// they go with that branch of the workflow.

export function gateInputToJson(input: GateInput, revision: string): GateInputJson {
  const rules = input.agent.spendingRules;
  return {
    intent: {
      amount: input.intent.amount.toString(),
      currency: input.intent.currency,
      category: input.intent.category ?? null,
      merchant: input.intent.merchant ?? null,
      toAddress: input.intent.toAddress ?? null,
      merchantVerified: input.intent.merchantVerified ?? true,
      country: input.intent.country ?? null,
      kyaTier: input.intent.kyaTier ?? null,
    },
    agent: {
      kyaTier: input.agent.kyaTier,
      spendingRules: {
        maxTransactionAmount: rules.maxTransactionAmount.toString(),
        maxDailyLimit: rules.maxDailyLimit.toString(),
        approvalThreshold: rules.approvalThreshold?.toString() ?? null,
      },
    },
    policies: input.policies.map(({ id, name, version, rules: parsed, shadow }) => ({ id, name, version, rules: policyRulesToDocument(parsed), shadow })),
    usage: { spentInWindow: input.usage.spentInWindow.toString(), spentThisMonth: input.usage.spentThisMonth.toString() },
    timeZone: input.timeZone,
    revision,
    status: input.status,
  };
}

export function gateInputFromJson(json: GateInputJson): GateInput {
  const rules = json.agent.spendingRules;
  return {
    intent: { ...json.intent, amount: BigInt(json.intent.amount), kyaTier: json.intent.kyaTier as KyaTier | null },
    agent: {
      kyaTier: json.agent.kyaTier as KyaTier,
      spendingRules: {
        maxTransactionAmount: BigInt(rules.maxTransactionAmount),
        maxDailyLimit: BigInt(rules.maxDailyLimit),
        approvalThreshold: rules.approvalThreshold === null ? null : BigInt(rules.approvalThreshold),
      },
    },
    policies: json.policies.map((policy) => ({ ...policy, rules: policyRulesSchema.parse(policy.rules) })),
    usage: { spentInWindow: BigInt(json.usage.spentInWindow), spentThisMonth: BigInt(json.usage.spentThisMonth) },
    timeZone: json.timeZone,
    status: json.status,
  };
}
