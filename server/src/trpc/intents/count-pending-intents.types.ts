import { pendingIntentCountView } from '@purser/core';

export const countPendingIntentsOutput = pendingIntentCountView;
