import { kyaEscalationResult, requestKyaEscalationInput as requestKyaEscalationRequest } from '@purser/core/contracts/kya';

export const requestKyaEscalationInput = requestKyaEscalationRequest;
export const requestKyaEscalationOutput = kyaEscalationResult;
