import { kyaEscalationResult, requestKyaEscalationInput as requestKyaEscalationRequest } from '@purser/core';

export const requestKyaEscalationInput = requestKyaEscalationRequest;
export const requestKyaEscalationOutput = kyaEscalationResult;
