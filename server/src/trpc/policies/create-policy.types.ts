import { createPolicyInput as createPolicyRequest, policyView } from '@purser/core';

export const createPolicyInput = createPolicyRequest;
export const createPolicyOutput = policyView;
