import { describe, expect, it } from 'vitest';
import { idempotencyKeySchema } from '@purser/core';
import {
  deriveRequestKey,
  deriveRunAndItemKey,
  requestDigest,
  RequestOccurrences,
  type KeyScope,
} from '../nodes/Purser/shared/idempotency';
import { sellerFileName, sellerJson } from '../nodes/Purser/resources/paidRequest/fetch';
import { dollarsOf } from '../nodes/Purser/resources/paidRequest/getPrice';

const scope: KeyScope = { instanceId: 'a1b2c3', workflowId: 'wf123', executionId: '42', nodeName: 'Pay invoice' };
const invoice = { amount: 12.5, currency: 'USDC', to_address: '0xabc', metadata: { invoice: 'A-1' } };

/** The keys one run of the node derives for its items, in order, as execute() does. */
function runKeys(items: object[]): string[] {
  const occurrences = new RequestOccurrences();
  return items.map((body) => {
    const digest = requestDigest('/payment', body as Record<string, never>);
    return deriveRequestKey(scope, digest, occurrences.next(digest));
  });
}

describe('keys derived from the request', () => {
  it('are the same whenever the node asks for the same payment again, whatever the order of its fields', () => {
    const reordered = { metadata: { invoice: 'A-1' }, to_address: '0xabc', currency: 'USDC', amount: 12.5 };
    expect(runKeys([reordered])).toEqual(runKeys([invoice]));
  });

  it('survive a loop back to the node that drops settled items and moves the others up', () => {
    const [a, b, c] = [invoice, { ...invoice, amount: 3 }, { ...invoice, to_address: '0xdef' }];
    const first = runKeys([a, b, c]);
    // b settled; a and c come back through Wait, at positions 0 and 1, in a later run.
    expect(runKeys([a, c])).toEqual([first[0], first[2]]);
  });

  it('tell equal requests of one run apart by their order, and give them back in that order', () => {
    const keys = runKeys([invoice, invoice, invoice]);
    expect(new Set(keys).size).toBe(3);
    expect(runKeys([invoice, invoice, invoice])).toEqual(keys);
  });

  it('differ for every other payment: body, endpoint, node, execution, workflow or instance', () => {
    const digest = requestDigest('/payment', invoice);
    const keys = new Set([
      deriveRequestKey(scope, digest, 0),
      deriveRequestKey(scope, requestDigest('/payment', { ...invoice, amount: 12.51 }), 0),
      deriveRequestKey(scope, requestDigest('/payment', { ...invoice, metadata: { invoice: 'A-2' } }), 0),
      deriveRequestKey(scope, requestDigest('/x402/fetch', invoice), 0),
      deriveRequestKey({ ...scope, nodeName: 'Pay invoice1' }, digest, 0),
      deriveRequestKey({ ...scope, executionId: '43' }, digest, 0),
      deriveRequestKey({ ...scope, workflowId: 'wf124' }, digest, 0),
      deriveRequestKey({ ...scope, instanceId: 'a1b2c4' }, digest, 0),
      // Fields are kept apart, so moving characters between them makes another key.
      deriveRequestKey({ ...scope, workflowId: 'wf1234', executionId: '2' }, digest, 0),
    ]);
    expect(keys.size).toBe(9);
  });

  it('are keys Purser accepts, of a fixed length, whatever the node is called', () => {
    const key = deriveRequestKey({ ...scope, nodeName: 'Zahlung für Rechnung 🧾' }, requestDigest('/payment', invoice), 0);
    expect(idempotencyKeySchema.safeParse(key).success).toBe(true);
    expect(key).toMatch(/^n8n-[0-9a-f]{64}$/);
  });
});

describe('keys derived per run and item (the option for loops that pay on every pass)', () => {
  it('are the keys earlier versions of the node derived', () => {
    expect(deriveRunAndItemKey(scope, 0, 3)).toBe('n8n-d7dd78cb34611f62ebb56504e22f2c98c9f483a50000541df27bf9fbf76c002b');
  });

  it('differ for every run and every item position', () => {
    const keys = new Set([deriveRunAndItemKey(scope, 0, 0), deriveRunAndItemKey(scope, 1, 0), deriveRunAndItemKey(scope, 0, 1)]);
    expect(keys.size).toBe(3);
  });
});

describe('the seller answer of an x402 fetch', () => {
  it('is parsed as JSON when the seller answered JSON as text', () => {
    expect(sellerJson({ headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"city":"Lisbon"}', body_encoding: 'utf8' })).toEqual({ city: 'Lisbon' });
  });

  it('is not parsed for other content, base64 bodies and broken JSON', () => {
    expect(sellerJson({ headers: { 'content-type': 'text/plain' }, body: '{"a":1}', body_encoding: 'utf8' })).toBeUndefined();
    expect(sellerJson({ headers: { 'content-type': 'application/json' }, body: 'eyJhIjoxfQ==', body_encoding: 'base64' })).toBeUndefined();
    expect(sellerJson({ headers: { 'content-type': 'application/json' }, body: '{"a":', body_encoding: 'utf8' })).toBeUndefined();
  });

  it('is saved under the file name the seller gave, else the last segment of the URL', () => {
    const url = 'https://seller.example/paid/chart%20v2.png?size=large';
    expect(sellerFileName({ 'content-disposition': 'attachment; filename="report.pdf"' }, url)).toBe('report.pdf');
    expect(sellerFileName({ 'content-disposition': "attachment; filename*=UTF-8''Bericht%20%C3%BC.pdf" }, url)).toBe('Bericht ü.pdf');
    expect(sellerFileName({}, url)).toBe('chart v2.png');
    expect(sellerFileName({}, 'https://seller.example/')).toBeUndefined();
  });
});

describe('the x402 price', () => {
  it('turns the atomic USDC amount of the requirement into exact dollars', () => {
    expect(dollarsOf('10000')).toBe('0.01');
    expect(dollarsOf('250000')).toBe('0.25');
    expect(dollarsOf('1')).toBe('0.000001');
    expect(dollarsOf('12000000')).toBe('12');
    expect(dollarsOf('0')).toBe('0');
  });
});
