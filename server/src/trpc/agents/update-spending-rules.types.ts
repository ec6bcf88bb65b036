import { agentView, updateSpendingRulesInput as updateSpendingRulesRequest } from '@purser/core';

export const updateSpendingRulesInput = updateSpendingRulesRequest;
export const updateSpendingRulesOutput = agentView;
