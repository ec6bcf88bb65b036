import { policyIdInput, policyView } from '@purser/core';

export const deletePolicyInput = policyIdInput;
export const deletePolicyOutput = policyView;
