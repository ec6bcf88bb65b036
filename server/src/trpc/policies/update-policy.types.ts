import { policyView, updatePolicyInput as updatePolicyRequest } from '@purser/core/contracts/policies';

export const updatePolicyInput = updatePolicyRequest;
export const updatePolicyOutput = policyView;
