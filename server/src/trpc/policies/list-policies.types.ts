import { listPoliciesInput as listPoliciesRequest, policyListView } from '@purser/core';

/** The input may be left out: every current policy of the owner. */
export const listPoliciesInput = listPoliciesRequest.prefault({});
export const listPoliciesOutput = policyListView;
