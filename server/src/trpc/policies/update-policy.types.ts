import { policyView, updatePolicyInput as updatePolicyRequest } from '@purser/core';

export const updatePolicyInput = updatePolicyRequest;
export const updatePolicyOutput = policyView;
