/**
 * Time as the chain will count it. Authorisation windows end in chain time, and a hold is
 * released only on a block whose timestamp shows the end (authorization.ts, decisionBlock): the
 * clock is never that evidence, since a node behind the head shows an old block while later ones,
 * mined before now, may have used the authorisation. The clock says when a look is worth it, and
 * when the sandbox's quiet anvil (it mines on demand) should mine a block to show the time.
 */
import type { EvmNetworkInfo } from '../../chain/evm-chain';

/** How far the server's clock may run ahead of a real chain's block times. */
const CLOCK_SKEW_S = 60;
/** The sandbox chain runs on this machine's clock. */
const SANDBOX_CLOCK_SKEW_S = 1;

export function clockSkewSeconds(info: Pick<EvmNetworkInfo, 'sandbox'>): number {
  return info.sandbox ? SANDBOX_CLOCK_SKEW_S : CLOCK_SKEW_S;
}

/** Unix seconds that every block mined from now on is certain to have passed. */
export function chainClockSeconds(info: Pick<EvmNetworkInfo, 'sandbox'>): bigint {
  return BigInt(Math.floor(Date.now() / 1000) - clockSkewSeconds(info));
}

/** The latest end (unix seconds) of a window of `validitySeconds` counted from now: what Purser signs at most. */
export function latestValidBefore(validitySeconds: number): bigint {
  return BigInt(Math.floor(Date.now() / 1000) + validitySeconds);
}

/** How long a signed authorisation may stay redeemable, whatever the seller asks: 5 minutes (X402_MAX_VALIDITY_SECONDS). */
export const DEFAULT_X402_MAX_VALIDITY_SECONDS = 300;
