import { intentListView, wouldHaveBlockedInput as wouldHaveBlockedRequest } from '@purser/core';

export const wouldHaveBlockedInput = wouldHaveBlockedRequest;
export const wouldHaveBlockedOutput = intentListView;
