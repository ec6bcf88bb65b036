import { agentTransactionsInput, agentTransactionView } from '@purser/core';
import { z } from 'zod';

export const listAgentTransactionsInput = agentTransactionsInput;
export const listAgentTransactionsOutput = z.array(agentTransactionView);
