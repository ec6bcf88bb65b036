import { decideIntentInput as decideIntentRequest, intentView } from '@purser/core';

/** approve and reject take the same input. */
export const decideIntentInput = decideIntentRequest;
export const decideIntentOutput = intentView;
