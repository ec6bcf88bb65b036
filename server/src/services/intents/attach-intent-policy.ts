/**
 * Attaches a policy (the spec's dailyCap, allowedCategories, kyaEscalation, timeBox, ...) to
 * one intent. Accepted while the intent has not passed its gate or waits for approval; the
 * workflow then runs the gate again with it. Past the gate it is 409: the payment was decided.
 */
import { AppError, policyRulesToDocument, type AttachPolicyInput, type IntentView, type PolicyRules } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import type { AuditData } from '../audit/audit-hash';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import type { AppDeps } from '../../deps';
import { getIntent } from './get-intent';
import { signalPaymentWorkflow } from './payment-workflows';
import { lockIntent } from './transition-intent';

export async function attachIntentPolicy(deps: Pick<AppDeps, 'db' | 'temporal' | 'logger'>, ownerId: string, input: AttachPolicyInput): Promise<IntentView> {
  const prisma = deps.db.prisma;
  await withAuditRetry(prisma, async (tx: TransactionClient) => {
    // The gate locks the intent's row too, so it sees this policy or finds the intent moved on.
    const intent = await lockIntent(tx, input.intentId, ownerId);
    if (intent.status !== 'created' && intent.status !== 'pending_approval') {
      throw new AppError('CONFLICT', `The payment intent is ${intent.status.replace('_', ' ')}: its policy gate has already decided`);
    }
    await attachPolicyRow(tx, { ownerId, agentId: intent.agentId, intentId: intent.id, rules: input.policy, shadow: input.shadow, actor: `owner:${ownerId}` });
    // Touch the intent so the gate's revision changes even if it already read the policies.
    await tx.paymentIntent.update({ where: { id: intent.id }, data: { updatedAt: new Date() }, select: { id: true } });
  });
  await signalPaymentWorkflow(deps.temporal, input.intentId, 'policyChanged', (error) => deps.logger.warn({ err: error, intentId: input.intentId }, 'policy signal failed'));
  return getIntent(prisma, ownerId, input.intentId);
}

/** The policy row of a policy attached to one intent, and its audit event. */
export async function attachPolicyRow(
  tx: TransactionClient,
  { ownerId, agentId, intentId, rules, shadow, actor }: { ownerId: string; agentId: string; intentId: string; rules: PolicyRules; shadow: boolean; actor: string },
): Promise<{ id: string; version: number }> {
  const name = `intent:${intentId}`;
  const previous = await tx.policy.findFirst({ where: { ownerId, name }, orderBy: { version: 'desc' }, select: { version: true } });
  const version = (previous?.version ?? 0) + 1;
  const document = policyRulesToDocument(rules) as Prisma.InputJsonObject;
  const policy = await tx.policy.create({
    data: { ownerId, agentId, paymentIntentId: intentId, name, version, rules: document, shadow },
    select: { id: true, version: true },
  });
  await appendAuditEvent(tx, {
    actor,
    action: 'policy.attached',
    subject: `policy:${policy.id}`,
    ownerId,
    data: { payment_intent_id: intentId, version, shadow, rules: document as AuditData },
  });
  return policy;
}
