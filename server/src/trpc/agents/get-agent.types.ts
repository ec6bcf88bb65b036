import { agentIdInput, agentView } from '@purser/core';

export const getAgentInput = agentIdInput;
export const getAgentOutput = agentView;
