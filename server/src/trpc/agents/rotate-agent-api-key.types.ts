import { agentIdInput, rotateAgentApiKeyResult } from '@purser/core';

export const rotateAgentApiKeyInput = agentIdInput;
/** The new key, shown this once; the old ones stop working. */
export const rotateAgentApiKeyOutput = rotateAgentApiKeyResult;
