import { policyIdInput, policyView } from '@purser/core';

export const getPolicyInput = policyIdInput;
export const getPolicyOutput = policyView;
