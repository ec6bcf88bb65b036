import { topUpWalletInput, topUpWalletResult } from '@purser/core';
import type { z } from 'zod';

/** { amount: dollars as number or string, currency: 'USDC' | 'USDT', idempotency_key? } */
export const topUpWalletProcedureInput = topUpWalletInput;
export const topUpWalletProcedureOutput = topUpWalletResult;
export type TopUpWalletProcedureInput = z.input<typeof topUpWalletProcedureInput>;
export type TopUpWalletProcedureOutput = z.infer<typeof topUpWalletProcedureOutput>;
