import { networkView } from '@purser/core';
import type { z } from 'zod';

/** The configured EVM network: name, chain id, sandbox flag, USDC contract, explorer and faucet links. */
export const getNetworkOutput = networkView;
export type GetNetworkOutput = z.infer<typeof getNetworkOutput>;
