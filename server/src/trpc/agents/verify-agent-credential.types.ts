import { verifyAgentCredentialInput as verifyAgentCredentialRequest, verifyCredentialResult } from '@purser/core';

export const verifyAgentCredentialInput = verifyAgentCredentialRequest;
export const verifyAgentCredentialOutput = verifyCredentialResult;
