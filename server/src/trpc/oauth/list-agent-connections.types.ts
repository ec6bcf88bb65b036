import { listAgentConnectionsInput as listInput, oauthConnectionListView } from '@purser/core';

export const listAgentConnectionsInput = listInput;
export const listAgentConnectionsOutput = oauthConnectionListView;
