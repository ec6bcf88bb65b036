import { intentIdInput, intentProgressView } from '@purser/core';

export const getIntentProgressInput = intentIdInput;
export const getIntentProgressOutput = intentProgressView;
