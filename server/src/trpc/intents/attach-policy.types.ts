import { attachPolicyInput as attachPolicyRequest, intentView } from '@purser/core';

export const attachPolicyInput = attachPolicyRequest;
export const attachPolicyOutput = intentView;
