// The events an endpoint can subscribe to: core's lists, in their order, so a type the server
// learns shows up here without a copy to keep in step. The words are the page's own.
import { WEBHOOK_EVENT_TYPES, WEBHOOK_SUBSCRIBABLE_EVENTS } from '@purser/core';
import type { WebhookEvent } from '../api/webhook-types';

/** Every event an endpoint may subscribe to. */
export const ENDPOINT_EVENT_TYPES: readonly WebhookEvent[] = WEBHOOK_SUBSCRIBABLE_EVENTS;

/**
 * What a new endpoint starts with: the payment events, as the server gives an endpoint that
 * names none, so a receiver written for intent events never meets another body unasked.
 */
export const DEFAULT_ENDPOINT_EVENTS: readonly WebhookEvent[] = WEBHOOK_EVENT_TYPES;

const DESCRIPTIONS: Partial<Record<string, string>> = {
  'intent.created': 'A payment intent was created.',
  'intent.approved': 'A payment passed its policy and identity checks (and the owner’s approval when needed).',
  'settlement.completed': 'A payment settled on its rail.',
  'policy.violation': 'A payment was refused by a spending rule or policy.',
  'budget.threshold': 'An agent’s spend reached 80 % or 100 % of its daily limit or of a policy’s monthly budget.',
  'connection.created': 'An assistant or other OAuth client was connected to an agent.',
  'connection.revoked': 'An OAuth connection of an agent ended (revoked, or its tokens were replayed).',
  'budget.requested': 'An agent asked for a budget for one task; it waits for your decision.',
  'budget.granted': 'A budget (payment session) opened: you granted a request or opened one.',
  'budget.rejected': 'A budget request was rejected.',
  'budget.closed': 'A budget or a waiting request was ended.',
};

/** One line about the event, or '' for a type without words here yet. */
export function describeEvent(type: string): string {
  return DESCRIPTIONS[type] ?? '';
}
