/**
 * The suspension's sweep, again, for whatever it missed: a suspension cancels its agent's
 * outstanding x402 authorisations right after its commit (suspend-agent.ts, pause-all-agents.ts),
 * but the process may die between the two. Run by the reconciler (intents/reconcile-payment-workflows.ts):
 * every agent that is no longer active and still has an authorisation no seller redeemed (an
 * operation pending for longer than the suspension's own sweep takes) has them cancelled.
 */
import { cancelAgentAuthorizations, type CancelAuthorizationsDeps } from './cancel-agent-authorizations';

/** An operation this young may still be in the suspension's own sweep. */
const SWEEP_AFTER_MS = 60_000;

export async function sweepSuspendedAgentAuthorizations(deps: CancelAuthorizationsDeps, options: { olderThanMs?: number } = {}): Promise<string[]> {
  const before = new Date(Date.now() - (options.olderThanMs ?? SWEEP_AFTER_MS));
  const rows = await deps.db.prisma.paymentIntent.findMany({
    where: {
      agent: { status: { not: 'active' } },
      railOperation: { is: { rail: 'x402_base', status: 'pending', createdAt: { lt: before } } },
    },
    distinct: ['agentId'],
    select: { agentId: true },
  });
  for (const { agentId } of rows) await cancelAgentAuthorizations(deps, agentId);
  return rows.map((row) => row.agentId);
}
