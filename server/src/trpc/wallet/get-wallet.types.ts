import { ownerWalletView } from '@purser/core';
import type { z } from 'zod';

/** The owner's wallet, or null for an owner without one (spec: single optional row). */
export const getWalletOutput = ownerWalletView.nullable();
export type GetWalletOutput = z.infer<typeof getWalletOutput>;
