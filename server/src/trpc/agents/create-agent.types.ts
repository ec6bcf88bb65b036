import { createAgentInput as createAgentRequest, createAgentResult } from '@purser/core';

export const createAgentInput = createAgentRequest;
/** The agent with its DID, wallet, rules and credential, and its API key (shown this once). */
export const createAgentOutput = createAgentResult;
