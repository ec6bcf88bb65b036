import { agentIdInput, agentView } from '@purser/core';

export const suspendAgentInput = agentIdInput;
export const suspendAgentOutput = agentView;
