import { describe, expect, it } from 'vitest';
import { idempotencyKeySchema } from '@purser/core';
import { deriveIdempotencyKey, type IdempotencyScope } from '../nodes/Purser/shared/idempotency';
import { sellerJson } from '../nodes/Purser/resources/paidRequest/fetch';

const scope: IdempotencyScope = {
  instanceId: 'a1b2c3',
  workflowId: 'wf123',
  executionId: '42',
  nodeName: 'Pay invoice',
  runIndex: 0,
  itemIndex: 3,
};

describe('derived idempotency keys', () => {
  it('are the same when n8n runs the same item of the same node run again', () => {
    expect(deriveIdempotencyKey({ ...scope })).toBe(deriveIdempotencyKey(scope));
  });

  it('differ for every other payment: item, run, node, execution, workflow or instance', () => {
    const variants: IdempotencyScope[] = [
      { ...scope, itemIndex: 4 },
      { ...scope, runIndex: 1 },
      { ...scope, nodeName: 'Pay invoice1' },
      { ...scope, executionId: '43' },
      { ...scope, workflowId: 'wf124' },
      { ...scope, instanceId: 'a1b2c4' },
      // Fields are kept apart, so moving characters between them makes another key.
      { ...scope, workflowId: 'wf1234', executionId: '2' },
    ];
    const keys = new Set([deriveIdempotencyKey(scope), ...variants.map(deriveIdempotencyKey)]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('are keys Purser accepts, of a fixed length, whatever the node is called', () => {
    const key = deriveIdempotencyKey({ ...scope, nodeName: 'Zahlung für Rechnung 🧾' });
    expect(idempotencyKeySchema.safeParse(key).success).toBe(true);
    expect(key).toMatch(/^n8n-[0-9a-f]{64}$/);
  });
});

describe('the seller JSON of an x402 fetch', () => {
  it('is parsed when the seller answered JSON as text', () => {
    expect(sellerJson({ headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"city":"Lisbon"}', body_encoding: 'utf8' })).toEqual({ city: 'Lisbon' });
  });

  it('is absent for other content, base64 bodies and broken JSON', () => {
    expect(sellerJson({ headers: { 'content-type': 'text/plain' }, body: '{"a":1}', body_encoding: 'utf8' })).toBeUndefined();
    expect(sellerJson({ headers: { 'content-type': 'application/json' }, body: 'eyJhIjoxfQ==', body_encoding: 'base64' })).toBeUndefined();
    expect(sellerJson({ headers: { 'content-type': 'application/json' }, body: '{"a":', body_encoding: 'utf8' })).toBeUndefined();
  });
});
