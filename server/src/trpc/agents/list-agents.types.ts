import { agentView } from '@purser/core';
import { z } from 'zod';

export const listAgentsOutput = z.array(agentView);
