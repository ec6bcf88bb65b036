import { WEBHOOK_EVENT_TYPES, WEBHOOK_SUBSCRIBABLE_EVENTS } from '@purser/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENDPOINT_EVENTS, describeEvent, ENDPOINT_EVENT_TYPES } from './event-types';

describe('endpoint event types', () => {
  it('offers every event core lets an endpoint subscribe to, budget.threshold included', () => {
    expect(ENDPOINT_EVENT_TYPES).toEqual(WEBHOOK_SUBSCRIBABLE_EVENTS);
    expect(ENDPOINT_EVENT_TYPES).toContain('budget.threshold');
  });

  it('starts a new endpoint on the payment events only, as the server does', () => {
    expect(DEFAULT_ENDPOINT_EVENTS).toEqual(WEBHOOK_EVENT_TYPES);
    expect(DEFAULT_ENDPOINT_EVENTS).not.toContain('budget.threshold');
  });

  it('has words for each event it offers', () => {
    for (const type of ENDPOINT_EVENT_TYPES) expect(describeEvent(type), type).not.toBe('');
    expect(describeEvent('some.future.event')).toBe('');
  });
});
