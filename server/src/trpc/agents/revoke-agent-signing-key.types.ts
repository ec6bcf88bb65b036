import { agentIdInput, agentIdentityView } from '@purser/core';

export const revokeAgentSigningKeyInput = agentIdInput;
/** A new key signs from now on; the old one leaves the directory at once. */
export const revokeAgentSigningKeyOutput = agentIdentityView;
