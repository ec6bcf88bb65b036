import { agentIdInput, agentIdentityView } from '@purser/core';

export const rotateAgentSigningKeyInput = agentIdInput;
/** The new key signs from now on; the old one stays in the directory for the rotation overlap. */
export const rotateAgentSigningKeyOutput = agentIdentityView;
