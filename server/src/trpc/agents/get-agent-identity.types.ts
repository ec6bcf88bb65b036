import { agentIdInput, agentIdentityView } from '@purser/core';

export const getAgentIdentityInput = agentIdInput;
/** The agent's signing keys as its directory publishes them (public halves only), and its signing rule. */
export const getAgentIdentityOutput = agentIdentityView;
