import { fundAgentInput, fundAgentResult } from '@purser/core';
import type { z } from 'zod';

/** { agent_id, amount: dollars as number or string, currency: 'USDC' | 'USDT', idempotency_key? } */
export const fundAgentProcedureInput = fundAgentInput;
export const fundAgentProcedureOutput = fundAgentResult;
export type FundAgentProcedureInput = z.input<typeof fundAgentProcedureInput>;
export type FundAgentProcedureOutput = z.infer<typeof fundAgentProcedureOutput>;
