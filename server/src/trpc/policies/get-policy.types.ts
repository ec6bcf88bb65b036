import { policyIdInput, policyView } from '@purser/core/contracts/policies';

export const getPolicyInput = policyIdInput;
export const getPolicyOutput = policyView;
