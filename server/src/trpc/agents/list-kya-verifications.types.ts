import { agentIdInput, listKyaVerificationsResult } from '@purser/core';

export const listKyaVerificationsInput = agentIdInput;
export const listKyaVerificationsOutput = listKyaVerificationsResult;
