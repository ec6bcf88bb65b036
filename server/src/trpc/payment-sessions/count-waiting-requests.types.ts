import { pendingIntentCountView } from '@purser/core';

export const countWaitingRequestsOutput = pendingIntentCountView;
