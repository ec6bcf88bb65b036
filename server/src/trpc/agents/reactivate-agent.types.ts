import { agentIdInput, agentView } from '@purser/core';

export const reactivateAgentInput = agentIdInput;
export const reactivateAgentOutput = agentView;
