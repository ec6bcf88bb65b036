import { describe, expect, it } from 'vitest';
import { deliveriesInput, DELIVERIES_PAGE_SIZE } from './delivery-pages';

describe('deliveriesInput', () => {
  const endpointId = '0193f0a0-0000-7000-8000-000000000001';

  it('asks for the newest page of an endpoint without a cursor or status', () => {
    expect(deliveriesInput(endpointId, null, null)).toEqual({ endpointId, limit: DELIVERIES_PAGE_SIZE });
  });

  it('continues after a cursor and narrows to a status when given', () => {
    expect(deliveriesInput(endpointId, 'failed', 'abc')).toEqual({ endpointId, limit: DELIVERIES_PAGE_SIZE, status: 'failed', cursor: 'abc' });
  });
});
