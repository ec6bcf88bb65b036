import { intentIdInput, intentView } from '@purser/core';

export const getIntentInput = intentIdInput;
export const getIntentOutput = intentView;
