import { resumeAllAgentsResult } from '@purser/core';

export const resumeAllAgentsOutput = resumeAllAgentsResult;
