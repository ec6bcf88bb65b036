/**
 * The node's fields and the bodies it sends follow the agent API's contract in @purser/core
 * (one contract, several surfaces): every choice the node offers is one the API accepts, and
 * every body it builds parses with the API's own schema.
 */
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { agentPaymentInput, CURRENCIES, openPaymentSessionInput, PAYMENT_PROTOCOLS, PAYMENT_SESSION_STATUSES, RAIL_NAMES, requestPaymentSessionInput, SANDBOX_RAILS, x402FetchInput } from '@purser/core';
import { Purser } from '../nodes/Purser/Purser.node';
import { fetchBody } from '../nodes/Purser/resources/paidRequest/fetch';
import { BUDGET_STATUSES } from '../nodes/Purser/resources/budget/getAll';
import { openBudgetBody } from '../nodes/Purser/resources/budget/open';
import { budgetRequestBody } from '../nodes/Purser/resources/budget/request';
import { BUDGET_PROTOCOLS, BUDGET_RAILS } from '../nodes/Purser/resources/budget/terms';
import { paymentBody } from '../nodes/Purser/resources/payment/create';

const properties = new Purser().description.properties;

/** Every property of the node, nested ones (options collections) included. */
function allProperties(list: Array<INodeProperties | INodePropertyOptions | INodePropertyCollection>): INodeProperties[] {
  return list.flatMap((entry) => {
    if (!('type' in entry)) return 'values' in entry ? allProperties(entry.values) : [];
    const nested = entry.type === 'collection' || entry.type === 'fixedCollection' ? allProperties(entry.options ?? []) : [];
    return [entry as INodeProperties, ...nested];
  });
}

function optionValues(name: string, operation: string): Array<{ name: string; value: string }> {
  const owner = properties.find((property) => property.displayOptions?.show?.operation?.includes(operation) && allProperties([property]).some((p) => p.name === name));
  const property = owner && allProperties([owner]).find((p) => p.name === name);
  if (!property?.options) throw new Error(`no options field ${name} for ${operation}`);
  return (property.options as INodePropertyOptions[]).map((option) => ({ name: option.name, value: String(option.value) }));
}

describe('the Purser node against the agent API contract', () => {
  it('offers exactly the currencies the payment endpoint accepts', () => {
    expect(optionValues('currency', 'create').map((option) => option.value).sort()).toEqual([...CURRENCIES].sort());
  });

  it('offers every rail of POST /payment except x402, which has its own operation, and labels sandbox rails', () => {
    const rails = optionValues('rail', 'create');
    expect(rails.map((rail) => rail.value).sort()).toEqual(RAIL_NAMES.filter((rail) => rail !== 'x402-base').sort());
    for (const rail of rails) expect(rail.name.includes('(Sandbox)')).toBe(SANDBOX_RAILS.includes(rail.value as (typeof SANDBOX_RAILS)[number]));
  });

  it('offers only methods the x402 fetch endpoint accepts', () => {
    for (const { value } of optionValues('method', 'fetch')) {
      expect(x402FetchInput.safeParse({ url: 'https://seller.example/paid', method: value }).success, value).toBe(true);
    }
  });

  it('builds payment bodies that the payment endpoint parses, leaving empty options to its defaults', () => {
    const full = paymentBody({
      amount: 1.25,
      toAddress: ' 0x000000000000000000000000000000000000dEaD ',
      currency: 'USDT',
      options: { category: ' data ', description: 'Dataset licence', rail: 'card' },
      metadata: { order: 'A-1001' },
    });
    expect(agentPaymentInput.parse(full)).toMatchObject({
      amount: 1_250_000n,
      currency: 'USDT',
      to_address: '0x000000000000000000000000000000000000dEaD',
      category: 'data',
      description: 'Dataset licence',
      rail: 'card',
      metadata: { order: 'A-1001' },
    });

    const minimal = paymentBody({ amount: 0.000001, toAddress: 'acct_1', currency: 'USDC', options: { category: ' ', description: '' }, metadata: {} });
    expect(minimal).toEqual({ amount: 0.000001, currency: 'USDC', to_address: 'acct_1' });
    expect(agentPaymentInput.parse(minimal)).toMatchObject({ amount: 1n, rail: 'ledger', metadata: {} });
  });

  it('builds x402 fetch bodies that the fetch endpoint parses, with the price cap and no body on GET', () => {
    const get = fetchBody({
      url: 'https://seller.example/paid/weather?city=Lisbon',
      maxAmount: 0.02,
      method: 'GET',
      headers: [{ name: 'Accept', value: 'application/json' }, { name: ' ', value: 'ignored' }],
      body: 'ignored on GET',
      options: { category: 'research' },
    });
    expect(get).toEqual({
      url: 'https://seller.example/paid/weather?city=Lisbon',
      method: 'GET',
      max_amount: 0.02,
      headers: { Accept: 'application/json' },
      category: 'research',
    });
    expect(x402FetchInput.parse(get)).toMatchObject({ max_amount: 20_000n, method: 'GET' });

    const post = fetchBody({ url: 'https://seller.example/q', maxAmount: 1, method: 'POST', headers: [], body: '{"q":1}', options: {} });
    expect(x402FetchInput.parse(post)).toMatchObject({ body: '{"q":1}', method: 'POST' });
  });
});

describe('the Budget resource against the payment session contracts', () => {
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();

  it('offers exactly the protocols, rails and statuses a budget may have, and labels sandbox rails', () => {
    expect(BUDGET_PROTOCOLS.map((option) => option.value).sort()).toEqual([...PAYMENT_PROTOCOLS].sort());
    expect(BUDGET_RAILS.map((option) => option.value).sort()).toEqual([...RAIL_NAMES].sort());
    for (const rail of BUDGET_RAILS) expect(rail.name.includes('(Sandbox)')).toBe(SANDBOX_RAILS.includes(rail.value as (typeof SANDBOX_RAILS)[number]));
    expect(BUDGET_STATUSES.map((option) => option.value).sort()).toEqual([...PAYMENT_SESSION_STATUSES].sort());
  });

  it('builds request and open bodies that the budget endpoints parse, leaving an empty scope out', () => {
    const options = { perPaymentMax: 2, sellers: 'API.example.com, 0x000000000000000000000000000000000000dEaD', categories: 'data', protocols: ['mpp'], rails: ['ledger'] };
    expect(requestPaymentSessionInput.parse(budgetRequestBody({ total: 5, expiresAt, reason: ' Data ', options }))).toMatchObject({
      total: 5_000_000n,
      per_payment_max: 2_000_000n,
      reason: 'Data',
      scope: { sellers: ['api.example.com', '0x000000000000000000000000000000000000dead'], categories: ['data'], protocols: ['mpp'], rails: ['ledger'] },
    });
    const minimal = budgetRequestBody({ total: 0.5, expiresAt, reason: 'Data', options: { sellers: ' ', protocols: [] } });
    expect(minimal).toEqual({ total: 0.5, expires_at: expiresAt, reason: 'Data' });
    expect(requestPaymentSessionInput.parse(minimal)).toMatchObject({ total: 500_000n });
    const opened = openBudgetBody({ agentId: '0423e163-2809-4879-a27c-66df3ed4aa66', total: 10, expiresAt, options: { ...options, reason: 'Q4' } });
    expect(openPaymentSessionInput.parse(opened)).toMatchObject({ totalUsd: 10_000_000n, perPaymentMaxUsd: 2_000_000n, reason: 'Q4' });
  });
});
