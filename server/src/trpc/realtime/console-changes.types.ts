import { z } from 'zod';
import { INTENT_STATUSES } from '@purser/core';

/**
 * 'sync': the subscription is live (or events may have been missed), re-read what the page
 * shows. 'intent': one of the owner's payments was created or moved (its status now), or its
 * rail operation changed. 'agent': one of the owner's agents, its wallet or its spending rules
 * changed. 'budgetAlert': an agent's spend crossed a budget threshold. 'session': one of the owner's
 * payment sessions was requested, opened, decided or closed (a payment naming it comes as 'intent').
 */
export const consoleChangeMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sync') }),
  z.object({ type: z.literal('intent'), intentId: z.uuid(), status: z.enum(INTENT_STATUSES) }),
  z.object({ type: z.literal('agent'), agentId: z.uuid() }),
  z.object({ type: z.literal('budgetAlert'), alertId: z.uuid(), agentId: z.uuid() }),
  z.object({ type: z.literal('session'), sessionId: z.uuid(), agentId: z.uuid() }),
]);
export type ConsoleChangeMessage = z.infer<typeof consoleChangeMessage>;
