/**
 * Cancels on chain every authorisation an agent signed that a seller has not redeemed yet (a
 * channel is closed), and answers which payments to tell: their holds are then released, since
 * nothing can move the money any more. Called when the agent is suspended or deleted. Each
 * failure is reported and the others still tried; an authorisation that could not be cancelled
 * still expires within its window.
 */
import { createX402BaseRail, type X402RailDeps } from './create-x402-rail';

export async function cancelOutstandingAuthorizations(deps: X402RailDeps, agentId: string): Promise<{ cancelled: string[]; failed: { intentId: string; error: unknown }[] }> {
  const rail = createX402BaseRail(deps);
  const pending = await deps.prisma.railOperation.findMany({
    where: { rail: 'x402_base', status: 'pending', paymentIntent: { agentId } },
    select: { paymentIntentId: true },
  });
  const cancelled: string[] = [];
  const failed: { intentId: string; error: unknown }[] = [];
  for (const { paymentIntentId } of pending) {
    try {
      await rail.abandon!(paymentIntentId);
      cancelled.push(paymentIntentId);
    } catch (error) {
      failed.push({ intentId: paymentIntentId, error });
    }
  }
  return { cancelled, failed };
}
