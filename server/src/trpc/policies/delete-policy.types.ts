import { policyIdInput, policyView } from '@purser/core/contracts/policies';

export const deletePolicyInput = policyIdInput;
export const deletePolicyOutput = policyView;
