/**
 * The guard of the sandbox shortcuts (test-money top-ups, the sandbox KYA verifier): on a real
 * network they would mint money or vouch for an identity, so there they refuse before any change.
 */
import { AppError } from '@purser/core';
import type { EvmNetworkInfo } from '../evm-chain';

/** What the guard reads of the chain's EvmNetworkInfo. */
export type SandboxCheckedNetwork = Pick<EvmNetworkInfo, 'sandbox' | 'displayName' | 'network'>;

/** Throws 409 SANDBOX_ONLY unless the deployment's chain is the sandbox. */
export function assertSandbox(info: SandboxCheckedNetwork, shortcut: string, instead: string): void {
  if (info.sandbox) return;
  throw new AppError('SANDBOX_ONLY', `${shortcut} works only on the sandbox chain; this deployment runs on ${info.displayName} (${info.network}). ${instead}`);
}
