/**
 * The agent signs in to a seller that asks it to (x402 sign-in-with-x): the seller's CAIP-122 /
 * EIP-4361 message, signed EIP-191 with the agent's wallet key by @x402/extensions' own client,
 * proves that the caller controls the wallet that pays (a seller selling access to an account lets
 * it in without a second payment).
 *
 * A sign-in is signed under a payment's rules, not the request-signing rule (that one is about
 * HTTP signatures): only for the origin the request went to (a seller cannot collect a sign-in
 * valid at another site), only on Purser's network with an EIP-191 signature, only by an active
 * agent (its row locked, as a payment locks it: intents/lock-paying-agent.ts), only for a host the
 * owner's policies allow. A refused one signs nothing. Each signature is in the owner's audit log.
 */
import { AppError, hostRefusal } from '@purser/core';
import { assertSIWxChallengeBoundToOrigin, createSIWxPayload } from '@x402/extensions/sign-in-with-x';
import type { AuthenticatedAgent } from '../../agents/authenticate-agent';
import { appendAuditEvent, withAuditRetry } from '../../audit/append-audit-event';
import { readAgentEvmAccount } from '../../identity/agent-keys';
import { lockPayingAgent } from '../../intents/lock-paying-agent';
import { loadApplicablePolicies } from '../../policies/load-applicable-policies';
import { signInHeader, type SignInChallenge } from '../x402/sign-in-with-x';
import type { X402Deps } from './x402-deps';

/** The SIGN-IN-WITH-X header that answers the challenge for a request to `requestUrl`. */
export async function signInWithX(deps: X402Deps, agent: AuthenticatedAgent, challenge: SignInChallenge, requestUrl: string): Promise<Record<string, string>> {
  const url = new URL(requestUrl);
  const { info } = challenge;
  try {
    assertSIWxChallengeBoundToOrigin(info, url);
  } catch (error) {
    throw new AppError(
      'SIGNATURE_REFUSED',
      `The seller asks the agent to sign in to ${info.domain} (${info.uri}), but the request went to ${url.origin}: the agent signs in only to the site it calls; nothing was signed`,
      { cause: error },
    );
  }
  const { network, displayName } = deps.chain.info;
  const chain = challenge.supportedChains.find((candidate) => candidate.chainId === network && candidate.type === 'eip191');
  if (!chain) {
    const asked = challenge.supportedChains.map((candidate) => `${candidate.chainId} (${candidate.type})`).join(', ');
    throw new AppError('SIGNATURE_REFUSED', `The seller asks for a sign-in on ${asked}; the agent signs in only on ${network} (${displayName}) with an EIP-191 signature; nothing was signed`);
  }

  return withAuditRetry(deps.db.prisma, async (tx) => {
    if ((await lockPayingAgent(tx, agent.agentId)) !== 'active') throw new AppError('AGENT_SUSPENDED', 'The agent is not active: Purser signs nothing for it');
    const refusal = hostRefusal(await loadApplicablePolicies(tx, { ownerId: agent.ownerId, agentId: agent.agentId }), url.host);
    if (refusal) throw new AppError('SIGNATURE_REFUSED', `${refusal.message} The agent does not sign in there; nothing was signed (${refusal.code}).`);
    const account = await readAgentEvmAccount(tx, deps.masterKey, agent.agentId);
    const payload = await createSIWxPayload({ ...info, chainId: chain.chainId, type: 'eip191' }, account, url);
    // The signature is public proof, but the log keeps what was agreed to, not the proof itself.
    await appendAuditEvent(tx, {
      actor: `agent:${agent.agentId}`,
      action: 'agent.signed_in',
      subject: `agent:${agent.agentId}`,
      ownerId: agent.ownerId,
      data: { host: url.host, domain: payload.domain, chain_id: payload.chainId, address: payload.address, nonce: payload.nonce },
    });
    return signInHeader(payload);
  });
}
