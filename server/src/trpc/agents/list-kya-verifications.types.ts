import { agentIdInput } from '@purser/core';
import { listKyaVerificationsResult } from '@purser/core/contracts/kya';

export const listKyaVerificationsInput = agentIdInput;
export const listKyaVerificationsOutput = listKyaVerificationsResult;
