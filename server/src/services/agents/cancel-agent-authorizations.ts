/**
 * When an agent is suspended or deleted, what it already signed must stop too: every x402
 * authorisation a seller has not redeemed yet is cancelled on chain with the agent's key, and
 * each payment's workflow is told to look, so it releases the hold now instead of at expiry.
 * This process forgets the agent's decrypted key. Runs after the status change is committed (nothing new is signed for the agent from then on).
 * A failure is logged, never raised: the agent is suspended either way, and an authorisation
 * that could not be cancelled still expires within X402_MAX_VALIDITY_SECONDS.
 */
import type { AppDeps } from '../../deps';
import { forgetAgentEvmAccount } from '../identity/agent-keys';
import { forgetSigningKeys } from '../identity/request-signing-keys';
import { signalPaymentWorkflow } from '../intents/payment-workflows';
import { cancelOutstandingAuthorizations } from '../paid-calls/cancel-outstanding-authorizations';

export type CancelAuthorizationsDeps = Pick<AppDeps, 'db' | 'chain' | 'masterKey' | 'temporal' | 'logger' | 'x402MaxValiditySeconds'>;

export async function cancelAgentAuthorizations(deps: CancelAuthorizationsDeps, agentId: string): Promise<void> {
  // The keys this process decrypted for the agent's payments and request signatures go with them.
  forgetAgentEvmAccount(deps.masterKey, agentId);
  forgetSigningKeys(agentId);
  try {
    const { cancelled, failed } = await cancelOutstandingAuthorizations(
      { prisma: deps.db.prisma, masterKey: deps.masterKey, chain: deps.chain, maxValiditySeconds: deps.x402MaxValiditySeconds },
      agentId,
    );
    for (const intentId of cancelled) {
      await signalPaymentWorkflow(deps.temporal, intentId, 'railUpdated', (error) => deps.logger.warn({ err: error, intentId }, 'could not signal the payment workflow'));
    }
    for (const { intentId, error } of failed) deps.logger.error({ err: error, intentId, agentId }, 'could not cancel an x402 authorisation; it expires unused');
  } catch (error) {
    deps.logger.error({ err: error, agentId }, 'could not cancel the agent\'s x402 authorisations; they expire unused');
  }
}
