import { createIntentInput as createIntentRequest, intentView } from '@purser/core';

export const createIntentInput = createIntentRequest;
export const createIntentOutput = intentView;
