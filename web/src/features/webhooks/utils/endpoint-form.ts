// The endpoint dialog's form: its starting values, its checks (core's own schemas, so the page
// refuses what the server would), and what an edit changes.
import { WEBHOOK_DESCRIPTION_MAX_LENGTH, webhookUrlSchema } from '@purser/core';
import type { WebhookEndpoint, WebhookEvent } from '../api/webhook-types';

export interface EndpointForm {
  url: string;
  description: string;
  events: WebhookEvent[];
  enabled: boolean;
}

export type EndpointFormErrors = Partial<Record<'url' | 'description' | 'events', string>>;

/** A new endpoint starts subscribed to `events` (the payment events), enabled. */
export function newEndpointForm(events: readonly WebhookEvent[]): EndpointForm {
  return { url: '', description: '', events: [...events], enabled: true };
}

export function endpointToForm(endpoint: WebhookEndpoint): EndpointForm {
  return { url: endpoint.url, description: endpoint.description, events: [...endpoint.events], enabled: endpoint.enabled };
}

/** Ticks or unticks one event, keeping the list in `order` (core's order of event types). */
export function toggleEvent(events: readonly WebhookEvent[], type: WebhookEvent, checked: boolean, order: readonly WebhookEvent[]): WebhookEvent[] {
  const chosen = new Set(events);
  if (checked) chosen.add(type);
  else chosen.delete(type);
  return order.filter((event) => chosen.has(event));
}

export function validateEndpointForm(form: EndpointForm): EndpointFormErrors {
  const errors: EndpointFormErrors = {};
  const url = webhookUrlSchema.safeParse(form.url);
  if (!url.success) errors.url = url.error.issues[0]?.message ?? 'Enter the endpoint’s URL';
  if (form.description.trim().length > WEBHOOK_DESCRIPTION_MAX_LENGTH) {
    errors.description = `Description must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`;
  }
  if (form.events.length === 0) errors.events = 'Choose at least one event';
  return errors;
}

export interface EndpointChanges {
  url?: string;
  description?: string;
  events?: WebhookEvent[];
  enabled?: boolean;
}

/** The fields an edit changes (URL compared in its normalised form), or null when none. */
export function endpointChanges(endpoint: WebhookEndpoint, form: EndpointForm): EndpointChanges | null {
  const changes: EndpointChanges = {};
  const url = webhookUrlSchema.safeParse(form.url);
  const normalizedUrl = url.success ? url.data : form.url.trim();
  if (normalizedUrl !== endpoint.url) changes.url = form.url.trim();
  if (form.description.trim() !== endpoint.description) changes.description = form.description.trim();
  const sameEvents = form.events.length === endpoint.events.length && form.events.every((event) => endpoint.events.includes(event));
  if (!sameEvents) changes.events = [...form.events];
  if (form.enabled !== endpoint.enabled) changes.enabled = form.enabled;
  return Object.keys(changes).length > 0 ? changes : null;
}
