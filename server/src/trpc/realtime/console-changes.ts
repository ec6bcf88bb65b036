import type { IntentStatus } from '@purser/core';
import type { BusMessage } from '../../services/realtime/event-bus';
import { ownerProcedure } from '../init';
import { ownerEvents } from './owner-events';
import type { ConsoleChangeMessage } from './console-changes.types';

const TOPICS = ['intents', 'agents', 'budget_alerts', 'payment_sessions'] as const;

/**
 * Everything the owner console shows, on ONE stream that its layout opens once: a browser allows
 * six HTTP/1.1 connections per host, so a stream per page or list would starve its requests.
 */
export const consoleChanges = ownerProcedure.subscription(async function* ({ ctx, signal }): AsyncGenerator<ConsoleChangeMessage, void> {
  for await (const message of ownerEvents(ctx, TOPICS, signal)) yield toConsoleChange(message);
});

function toConsoleChange(message: BusMessage<(typeof TOPICS)[number]>): ConsoleChangeMessage {
  if (message.type === 'sync') return message;
  const { event } = message;
  switch (event.topic) {
    case 'intents':
      return { type: 'intent', intentId: event.intentId, status: event.status as IntentStatus };
    case 'agents':
      return { type: 'agent', agentId: event.agentId };
    case 'budget_alerts':
      return { type: 'budgetAlert', alertId: event.alertId, agentId: event.agentId };
    case 'payment_sessions':
      return { type: 'session', sessionId: event.sessionId, agentId: event.agentId };
  }
}
