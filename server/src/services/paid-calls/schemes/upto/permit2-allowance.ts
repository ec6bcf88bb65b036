/**
 * The agent's USDC allowance to Permit2: `upto` authorisations move money through Permit2, so the
 * allowance is kept at what the agent's open `upto` payments hold, never more. Raised before a
 * payment is signed, lowered once one ended.
 */
import { PERMIT2_ADDRESS } from '@x402/evm';
import type { Hex, LocalAccount } from 'viem';
import type { EvmChain } from '../../../chain/evm-chain';
import { readAgentEvmAccount } from '../../../identity/agent-keys';
import { oneAtATimeBy } from '../../../../one-at-a-time';
import { DEFAULT_X402_MAX_VALIDITY_SECONDS } from '../chain-clock';
import type { SchemeContext } from '../payment-scheme';

/** Per agent, one Permit2 allowance change at a time in this process. */
const oneAgentAtATime = oneAtATimeBy<string>();

/**
 * Sets the agent's Permit2 allowance to what its open `upto` payments hold: reserved, not yet
 * settled or released, not resolved on the rail, and not being cancelled (a cancel lowers the
 * allowance first, upto-scheme.ts voidOnChain). One change at a time per agent in this
 * process (the permit's nonce is the token's, per agent); a permit that lost a race with another
 * process reverts, and the caller's step is retried.
 */
export function syncPermit2Allowance(context: SchemeContext, agentId: string): Promise<void> {
  return oneAgentAtATime(agentId, async () => {
    const [row] = await context.prisma.$queryRaw<Array<{ held: bigint }>>`
      SELECT COALESCE(SUM(pi.amount), 0)::bigint AS held
        FROM payment_intents pi LEFT JOIN rail_operations ro ON ro.payment_intent_id = pi.id
       WHERE pi.agent_id = ${agentId}::uuid AND pi.rail = 'x402-base' AND pi.status = 'processing'
         AND pi.reserved_at IS NOT NULL AND pi.settled_at IS NULL AND pi.released_at IS NULL
         AND pi.metadata->'x402'->'requirement'->>'scheme' = 'upto'
         AND (ro.id IS NULL OR (ro.status = 'pending' AND ro.details->>'cancelRequestedAt' IS NULL))`;
    await setPermit2AllowanceOnChain(context.chain, await readAgentEvmAccount(context.prisma, context.masterKey, agentId, { evenIfRevoked: true }), row!.held);
  });
}

const eip2612PermitTypes = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

/**
 * Sets the agent's USDC allowance to Permit2 to exactly `value` with an EIP-2612 permit signed by
 * the agent and submitted by the chain's gas payer. Resolves with the permit's transaction, or
 * null when the allowance already is `value`.
 */
export async function setPermit2AllowanceOnChain(chain: EvmChain, account: LocalAccount, value: bigint): Promise<Hex | null> {
  const { allowance, permitNonce } = await chain.permit2Allowance(account.address);
  if (allowance === value) return null;
  const deadline = BigInt(Math.floor(Date.now() / 1000) + DEFAULT_X402_MAX_VALIDITY_SECONDS);
  const signature = await account.signTypedData({
    domain: await chain.usdcDomain(),
    types: eip2612PermitTypes,
    primaryType: 'Permit',
    message: { owner: account.address, spender: PERMIT2_ADDRESS, value, nonce: permitNonce, deadline },
  });
  return chain.submitPermit2Allowance({ owner: account.address, value, deadline, signature, sender: account });
}
