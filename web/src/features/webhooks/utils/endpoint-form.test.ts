import { describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../api/webhook-types';
import { endpointChanges, endpointToForm, newEndpointForm, toggleEvent, validateEndpointForm } from './endpoint-form';
import { DEFAULT_ENDPOINT_EVENTS, ENDPOINT_EVENT_TYPES } from './event-types';

const endpoint: WebhookEndpoint = {
  id: '0193f0a0-0000-7000-8000-000000000001',
  url: 'https://example.com/hooks',
  events: ['intent.created', 'settlement.completed'],
  description: 'Billing',
  enabled: true,
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
};

describe('newEndpointForm', () => {
  it('starts empty, enabled, with the events it is given', () => {
    expect(newEndpointForm(DEFAULT_ENDPOINT_EVENTS)).toEqual({ url: '', description: '', events: [...DEFAULT_ENDPOINT_EVENTS], enabled: true });
  });
});

describe('toggleEvent', () => {
  it('adds and removes an event, keeping the order of the full list', () => {
    const order = ENDPOINT_EVENT_TYPES;
    expect(toggleEvent(['settlement.completed'], 'intent.created', true, order)).toEqual(['intent.created', 'settlement.completed']);
    expect(toggleEvent(['intent.created', 'settlement.completed'], 'intent.created', false, order)).toEqual(['settlement.completed']);
    expect(toggleEvent(['intent.created'], 'intent.created', true, order)).toEqual(['intent.created']);
  });
});

describe('validateEndpointForm', () => {
  it('accepts an http(s) URL with at least one event', () => {
    expect(validateEndpointForm({ url: 'http://127.0.0.1:4000/hook', description: '', events: ['intent.created'], enabled: true })).toEqual({});
  });

  it('refuses a missing or non-http URL, credentials in it, and no events', () => {
    const errors = validateEndpointForm({ url: 'ftp://example.com', description: '', events: [], enabled: true });
    expect(errors.url).toMatch(/http/);
    expect(errors.events).toBe('Choose at least one event');
    expect(validateEndpointForm({ url: '', description: '', events: ['intent.created'], enabled: true }).url).toBeTruthy();
    expect(validateEndpointForm({ url: 'https://user:pw@example.com/', description: '', events: ['intent.created'], enabled: true }).url).toMatch(/user name/);
  });

  it('refuses a description over 500 characters', () => {
    expect(validateEndpointForm({ url: 'https://example.com', description: 'x'.repeat(501), events: ['intent.created'], enabled: true }).description).toMatch(/500/);
  });
});

describe('endpointChanges', () => {
  it('is null when nothing changed, the URL compared as the server stores it', () => {
    expect(endpointChanges(endpoint, endpointToForm(endpoint))).toBeNull();
    expect(endpointChanges(endpoint, { ...endpointToForm(endpoint), url: ' HTTPS://EXAMPLE.COM/hooks ' })).toBeNull();
  });

  it('names only the fields that changed', () => {
    const form = { ...endpointToForm(endpoint), description: 'Billing sync', enabled: false };
    expect(endpointChanges(endpoint, form)).toEqual({ description: 'Billing sync', enabled: false });
    expect(endpointChanges(endpoint, { ...endpointToForm(endpoint), events: ['intent.created'] })).toEqual({ events: ['intent.created'] });
    expect(endpointChanges(endpoint, { ...endpointToForm(endpoint), url: 'https://example.com/v2' })).toEqual({ url: 'https://example.com/v2' });
  });

  it('treats the same events in another order as unchanged', () => {
    expect(endpointChanges(endpoint, { ...endpointToForm(endpoint), events: ['settlement.completed', 'intent.created'] })).toBeNull();
  });
});
