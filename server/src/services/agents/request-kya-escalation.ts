/**
 * An owner's request to raise an agent's KYA tier. The evidence is checked by the sandbox
 * verifier (verify-kya-evidence.ts) and the outcome, verified or rejected, is recorded with the
 * whole evidence as a KYA verification, which is never edited afterwards. A verified request
 * raises the agent's tier and re-issues its credential, which states the tier; the credential
 * takes a fresh slot in the status list, so the one stating the old tier stops verifying.
 * A rejected request changes nothing but the record and the audit log, and is not an error:
 * the caller reads the outcome and its reason from the result. The sandbox verifier vouches
 * for nobody on a real network: there every request is refused with SANDBOX_ONLY, unrecorded.
 *
 * The agent row is locked first, so concurrent requests for one agent run one after the
 * other and the second sees the tier the first set.
 */
import { AppError, compareTiers, nextTier, type KyaTier, type KyaEscalationResult, type RequestKyaEscalationInput } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import { assertSandbox } from '../chain/sandbox/sandbox-only';
import { serializeKyaVerification, kyaVerificationSelect } from './kya-verification-view';
import { lockOwnedAgent, reissueAgentCredential, type AgentServiceDeps } from './owned-agent';
import { agentSelect, serializeAgent } from './serialize-agent';
import { SANDBOX_KYA_METHOD, verifyKyaEvidence } from './verify-kya-evidence';

export const AGENT_SUSPENDED_KYA_MESSAGE = 'The agent is suspended: reactivate it before raising its KYA tier';

function notAbove(current: KyaTier, requested: KyaTier): AppError {
  const next = nextTier(current);
  const hint = next ? `ask for ${next} or above` : 'high is the highest tier';
  const relation = current === requested ? 'already holds' : 'holds';
  return new AppError('CONFLICT', `The agent ${relation} the ${current} KYA tier, so ${requested} would not raise it: ${hint}`);
}

export const SANDBOX_KYA_INSTEAD = 'Raising a KYA tier here needs a real identity provider, which this deployment does not have.';

export async function requestKyaEscalation(
  deps: AgentServiceDeps & Pick<AppDeps, 'chain'>,
  ownerId: string,
  input: RequestKyaEscalationInput,
): Promise<KyaEscalationResult> {
  assertSandbox(deps.chain.info, 'The sandbox KYA verifier', SANDBOX_KYA_INSTEAD);
  // Pure, and the same for every attempt of the transaction below.
  const outcome = verifyKyaEvidence(input);
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const agent = await lockOwnedAgent(tx, ownerId, input.agent_id);
    if (agent.status === 'suspended') throw new AppError('AGENT_SUSPENDED', AGENT_SUSPENDED_KYA_MESSAGE);
    const { kyaTier: fromTier } = await tx.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { kyaTier: true } });
    if (compareTiers(input.tier, fromTier) <= 0) throw notAbove(fromTier, input.tier);

    const verification = await tx.kyaVerification.create({
      data: {
        agentId: agent.id,
        fromTier,
        toTier: input.tier,
        status: outcome.status,
        method: SANDBOX_KYA_METHOD,
        evidence: input.evidence as Prisma.InputJsonObject,
        reason: outcome.reason,
        requestedBy: ownerId,
      },
      select: kyaVerificationSelect,
    });

    if (outcome.status === 'verified') {
      await tx.agent.update({ where: { id: agent.id }, data: { kyaTier: input.tier }, select: { id: true } });
      await reissueAgentCredential(tx, deps, agent.id, { newStatusIndex: true });
    }
    const updated = serializeAgent(await tx.agent.findUniqueOrThrow({ where: { id: agent.id }, select: agentSelect }));

    // The evidence stays in the verification row; the chained log, which nothing can ever
    // erase, names the verification instead of repeating personal data.
    await appendAuditEvent(tx, {
      actor: `owner:${ownerId}`,
      action: outcome.status === 'verified' ? 'agent.kya_tier_raised' : 'agent.kya_escalation_rejected',
      subject: `agent:${agent.id}`,
      ownerId,
      data: {
        verification_id: verification.id,
        method: verification.method,
        from_tier: fromTier,
        to_tier: input.tier,
        ...(outcome.status === 'rejected' ? { reason: outcome.reason } : {}),
      },
    });
    return { verification: serializeKyaVerification(verification), agent: updated };
  });
}
