import { intentListView } from '@purser/core';
import { wouldHaveBlockedInput as wouldHaveBlockedRequest } from '@purser/core/contracts/policies';

export const wouldHaveBlockedInput = wouldHaveBlockedRequest;
export const wouldHaveBlockedOutput = intentListView;
