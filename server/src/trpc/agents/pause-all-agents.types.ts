import { pauseAllAgentsResult } from '@purser/core';

export const pauseAllAgentsOutput = pauseAllAgentsResult;
