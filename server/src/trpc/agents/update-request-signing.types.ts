import { agentIdInput, agentIdentityView, updateRequestSigningInput as updateRequestSigningRequest } from '@purser/core';

export const updateRequestSigningInput = agentIdInput.extend(updateRequestSigningRequest.shape);
export const updateRequestSigningOutput = agentIdentityView;
