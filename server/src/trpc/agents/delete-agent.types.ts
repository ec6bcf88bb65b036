import { agentIdInput, deleteAgentResult } from '@purser/core';

export const deleteAgentInput = agentIdInput;
export const deleteAgentOutput = deleteAgentResult;
