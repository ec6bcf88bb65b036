import { createPolicyInput as createPolicyRequest, policyView } from '@purser/core/contracts/policies';

export const createPolicyInput = createPolicyRequest;
export const createPolicyOutput = policyView;
