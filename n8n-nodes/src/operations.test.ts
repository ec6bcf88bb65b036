/**
 * The Purser nodes' operations run in a stand-in for n8n's execution context (test/support/
 * fake-n8n.ts): what each sends, with which credential, and how it reads the answer. Every
 * request is checked against the OpenAPI document the server serves, so the nodes cannot call
 * an endpoint Purser does not have.
 */
import type { IDataObject, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_SUBSCRIBABLE_EVENTS } from '@purser/core';
import { OPERATIONS, OWNER_OPERATIONS, Purser } from '../nodes/Purser/Purser.node';
import { deriveRequestKey, requestDigest } from '../nodes/Purser/shared/idempotency';
import { PAYMENT_STATUSES } from '../nodes/Purser/shared/paymentStatus';
import { signDelivery } from '../nodes/PurserTrigger/verifySignature';
import { PurserTrigger } from '../nodes/PurserTrigger/PurserTrigger.node';
import { fakeN8n, type FakeN8nOptions, type RecordedRequest, type ScriptedAnswer } from '../test/support/fake-n8n';
import { AGENT_BUDGET, AGENT_ID, EXAMPLES, INTENT_ID, PAYMENT, SESSION_ID, WAITING_FOR_APPROVAL } from '../test/support/operation-examples';
import { documentedOperations, servedOpenApiDocument, type DocumentedOperation } from '@purser/server/testing';

const node = new Purser();

async function run(options: FakeN8nOptions): Promise<{ output: INodeExecutionData[]; requests: RecordedRequest[] }> {
  const fake = fakeN8n(options);
  const [output] = await node.execute.call(fake.context);
  return { output: output!, requests: fake.requests };
}

function operationsOfDescription(properties: INodeProperties[]): string[] {
  return properties
    .filter((property) => property.name === 'operation')
    .flatMap((property) => (property.options as INodePropertyOptions[]).map((option) => `${String(property.displayOptions?.show?.resource?.[0])}.${String(option.value)}`))
    .sort();
}

let documented: DocumentedOperation[];

beforeAll(async () => {
  documented = documentedOperations(await servedOpenApiDocument('http://purser.test'));
}, 120_000);

function documentedAs(request: RecordedRequest): DocumentedOperation | undefined {
  const path = new URL(request.url).pathname;
  return documented.find((operation) => operation.method === request.method && operation.pattern.test(path));
}

describe('the Purser node’s operations', () => {
  it('are exactly those its description offers, each with an example here', () => {
    const offered = operationsOfDescription(node.description.properties);
    const implemented = Object.entries(OPERATIONS).flatMap(([resource, operations]) => Object.keys(operations).map((operation) => `${resource}.${operation}`)).sort();
    expect(implemented).toEqual(offered);
    expect(Object.keys(EXAMPLES).sort()).toEqual(offered);
  });

  it('call only endpoints of Purser’s OpenAPI document, the owner’s with the owner credential', async () => {
    for (const [name, example] of Object.entries(EXAMPLES)) {
      const [resource, operation] = name.split('.') as [string, string];
      const { requests } = await run({ parameters: { resource, operation, ...example.parameters }, answers: () => ({ body: example.answer }) });
      expect(requests.length, name).toBeGreaterThan(0);
      for (const request of requests) {
        expect(request.credentialType, name).toBe(OWNER_OPERATIONS.includes(operation) ? 'purserOwnerApi' : 'purserApi');
        expect(documentedAs(request), `${name}: ${request.method} ${new URL(request.url).pathname}`).toBeDefined();
      }
    }
  });

  it('name the owner credential in the description for exactly the owner’s operations', () => {
    const credentials = node.description.credentials ?? [];
    expect(credentials.find((credential) => credential.name === 'purserOwnerApi')?.displayOptions?.show?.operation).toEqual(OWNER_OPERATIONS);
    expect(credentials.find((credential) => credential.name === 'purserApi')?.displayOptions?.hide?.operation).toEqual(OWNER_OPERATIONS);
    const offered = operationsOfDescription(node.description.properties).map((name) => name.split('.')[1]!);
    // No other resource has an operation of the same value, so the operation alone picks the credential.
    for (const operation of OWNER_OPERATIONS) expect(offered.filter((value) => value === operation), operation).toHaveLength(1);
  });

  it('describe every operation with an action and a sentence an LLM can act on', () => {
    for (const property of node.description.properties.filter((candidate) => candidate.name === 'operation')) {
      for (const option of property.options as INodePropertyOptions[]) {
        expect(option.action, String(option.value)).toMatch(/^[A-Z]/);
        expect((option.description ?? '').length, String(option.value)).toBeGreaterThan(40);
      }
    }
    expect(node.description.usableAsTool).toBe(true);
  });
});

describe('Payment → Create', () => {
  const pay = (items: IDataObject[], runIndex: number, keyDerivation?: string) =>
    run({
      items,
      runIndex,
      parameters: (itemIndex) => ({
        resource: 'payment',
        operation: 'create',
        amount: items[itemIndex]!.amount as number,
        toAddress: '0xabc',
        currency: 'USDC',
        options: keyDerivation ? { keyDerivation } : {},
      }),
      answers: () => ({ statusCode: 202, body: { ...PAYMENT, status: 'pending_approval' } }),
    });

  it('sends the same key for an item that comes back through a loop, whatever its run and position', async () => {
    const first = await pay([{ amount: 1 }, { amount: 2 }, { amount: 3 }], 0);
    const keys = first.requests.map((request) => request.headers?.['Idempotency-Key']);
    expect(new Set(keys).size).toBe(3);
    // The payment of 2 settled; 1 and 3 come back through Wait in the next run of the node.
    const second = await pay([{ amount: 1 }, { amount: 3 }], 1);
    expect(second.requests.map((request) => request.headers?.['Idempotency-Key'])).toEqual([keys[0], keys[2]]);
    expect(second.output.map((item) => item.json.idempotency_key)).toEqual([keys[0], keys[2]]);
  });

  it('sends a new key on every run with Derive Key From set to Run and Item', async () => {
    const first = await pay([{ amount: 1 }], 0, 'runAndItem');
    const second = await pay([{ amount: 1 }], 1, 'runAndItem');
    expect(first.requests[0]!.headers?.['Idempotency-Key']).not.toBe(second.requests[0]!.headers?.['Idempotency-Key']);
  });

  it('sends the key set under Options as it is', async () => {
    const { requests } = await run({
      parameters: { resource: 'payment', operation: 'create', amount: 1, toAddress: '0xabc', currency: 'USDC', options: { idempotencyKey: 'order-1001' } },
      answers: () => ({ body: PAYMENT }),
    });
    expect(requests[0]!.headers).toEqual({ 'Idempotency-Key': 'order-1001' });
  });

  it('points a payment that waits for the owner to Payment → Get, not to the API’s endpoint', async () => {
    const apiMessage = 'The payment waits for the owner to approve it. Read GET /payment/{intent_id}, or repeat this call with the same Idempotency-Key, to see the outcome.';
    const { output } = await run({
      parameters: { resource: 'payment', operation: 'create', amount: 7.5, toAddress: '0xabc', currency: 'USDC', options: {} },
      answers: () => ({ statusCode: 202, body: { ...PAYMENT, status: 'pending_approval', message: apiMessage } }),
    });
    expect(output[0]!.json.message).toBe(
      'The payment waits for the owner to approve or reject it. Nothing has moved yet. Payment → Get shows where it stands; running this node again with the same idempotency key answers this payment and never pays twice.',
    );
  });
});

describe('the node’s words in Purser’s refusals', () => {
  const refusal = async (parameters: IDataObject, error: { code: string; message: string }) => {
    const failure = await run({ parameters, answers: () => ({ statusCode: 422, body: { error } }) }).then(
      () => undefined,
      (thrown: unknown) => thrown as { message: string; description?: string },
    );
    expect(failure, 'the node did not fail').toBeDefined();
    return failure!;
  };
  const fetchParameters = { resource: 'paidRequest', operation: 'fetch', url: 'https://seller.test/paid/report', maxAmount: 0.02, method: 'GET', options: {} };

  it('name Max Price for a seller asking more than it, and say how to go on', async () => {
    const failure = await refusal(fetchParameters, { code: 'POLICY_VIOLATION', message: 'The seller asks 0.25 USDC, more than max_amount 0.02; nothing was paid' });
    expect(failure.message).toBe('POLICY_VIOLATION: The seller asks 0.25 USDC, more than Max Price (0.02); nothing was paid');
    expect(failure.description).toBe('Nothing was paid. Raise Max Price to pay this seller, or read its price first with Paid Request → Get Price.');
  });

  it('name the node’s fields for an invalid value, and keep a spending rule’s refusal as it is', async () => {
    const create = { resource: 'payment', operation: 'create', amount: 1, toAddress: '0xabc', currency: 'USDC', options: {} };
    expect((await refusal(create, { code: 'VALIDATION_FAILED', message: 'to_address must be at most 200 characters' })).message).toBe('VALIDATION_FAILED: To Address must be at most 200 characters');
    expect((await refusal(create, { code: 'VALIDATION_FAILED', message: 'description must be at most 500 characters' })).message).toBe('VALIDATION_FAILED: Description must be at most 500 characters');
    const rule = await refusal(create, { code: 'POLICY_VIOLATION', message: 'The agent’s spending rules allow at most $25.00 per payment' });
    expect(rule.message).toBe('POLICY_VIOLATION: The agent’s spending rules allow at most $25.00 per payment');
    expect(rule.description).toBe('A spending rule or policy refused the payment. Nothing moved.');
  });
});

describe('Payment → Get', () => {
  it('reads one payment by intent ID or by idempotency key, and pays nothing', async () => {
    const byId = await run({ parameters: { resource: 'payment', operation: 'get', lookUpBy: 'intentId', intentId: ` ${INTENT_ID} ` }, answers: () => ({ body: PAYMENT }) });
    expect(byId.requests).toEqual([{ method: 'GET', url: `https://purser.test/functions/v1/mcp-server/payment/${INTENT_ID}`, credentialType: 'purserApi' }]);
    // Purser's answer, with the status explained in the node's words.
    expect(byId.output[0]!.json).toEqual({ ...PAYMENT, message: PAYMENT_STATUSES.settled!.message });
    const byKey = await run({ parameters: { resource: 'payment', operation: 'get', lookUpBy: 'idempotencyKey', idempotencyKey: 'order-1001' }, answers: () => ({ body: PAYMENT }) });
    expect(byKey.requests).toEqual([{ method: 'GET', url: 'https://purser.test/functions/v1/mcp-server/payment', qs: { idempotency_key: 'order-1001' }, credentialType: 'purserApi' }]);
  });
});

describe('the owner’s operations', () => {
  it('approve and reject a payment with the reason given, and suspend and resume an agent named by its DID', async () => {
    const approve = await run({ parameters: { resource: 'payment', operation: 'approve', intentId: INTENT_ID, reason: 'Within budget' }, answers: () => ({ body: { id: INTENT_ID } }) });
    expect(approve.requests[0]).toMatchObject({ method: 'POST', url: `https://purser.test/api/v1/intents/${INTENT_ID}/approve`, body: { reason: 'Within budget' } });
    const reject = await run({ parameters: { resource: 'payment', operation: 'reject', intentId: INTENT_ID, reason: '' }, answers: () => ({ body: { id: INTENT_ID } }) });
    expect(reject.requests[0]).toMatchObject({ method: 'POST', url: `https://purser.test/api/v1/intents/${INTENT_ID}/reject`, body: {} });
    const suspend = await run({ parameters: { resource: 'agent', operation: 'suspend', agent: `did:agnic:${AGENT_ID}` }, answers: () => ({ body: {} }) });
    expect(suspend.requests[0]).toMatchObject({ method: 'POST', url: `https://purser.test/api/v1/agents/${AGENT_ID}/suspend` });
    const resume = await run({ parameters: { resource: 'agent', operation: 'resume', agent: AGENT_ID }, answers: () => ({ body: {} }) });
    expect(resume.requests[0]).toMatchObject({ method: 'POST', url: `https://purser.test/api/v1/agents/${AGENT_ID}/reactivate` });
  });

  it('refuse an agent that is neither an agent ID nor a DID before calling Purser', async () => {
    await expect(run({ parameters: { resource: 'agent', operation: 'suspend', agent: 'my agent' }, answers: [] })).rejects.toThrow(/neither an agent ID nor an agent DID/);
  });

  it('list every pending payment, a page at a time, with Return All', async () => {
    const pages: ScriptedAnswer[] = [
      { body: { intents: [{ id: 'a' }, { id: 'b' }], nextCursor: 'c1' } },
      { body: { intents: [{ id: 'c' }], nextCursor: null } },
    ];
    const { output, requests } = await run({ parameters: { resource: 'payment', operation: 'getPending', returnAll: true, filters: { agent: `did:agnic:${AGENT_ID}` } }, answers: pages });
    expect(output.map((item) => item.json.id)).toEqual(['a', 'b', 'c']);
    expect(requests.map((request) => request.qs)).toEqual([
      { status: 'pending_approval', limit: 100, agentId: AGENT_ID },
      { status: 'pending_approval', limit: 100, agentId: AGENT_ID, cursor: 'c1' },
    ]);
  });
});

describe('Budget', () => {
  const AGENT_API = 'https://purser.test/functions/v1/mcp-server';
  const OWNER_API = 'https://purser.test/api/v1';

  it('requests a budget as the agent with its terms and scope, and says what to do next in the node’s words', async () => {
    const { output, requests } = await run({
      parameters: {
        resource: 'budget',
        operation: 'request',
        total: 5,
        expiresAt: '2026-12-31T18:00:00+01:00',
        reason: ' Market data for the weekly report ',
        options: { perPaymentMax: 2, sellers: 'api.example.com, ,0x000000000000000000000000000000000000dEaD', categories: '', protocols: ['x402'], rails: [] },
      },
      answers: () => ({ statusCode: 201, body: { ...AGENT_BUDGET, status: 'requested', message: 'Read GET /budget/{session_id} until status is open, then pass session_id.' } }),
    });
    expect(requests).toEqual([
      {
        method: 'POST',
        url: `${AGENT_API}/budget/request`,
        credentialType: 'purserApi',
        body: {
          total: 5,
          expires_at: '2026-12-31T17:00:00.000Z',
          reason: 'Market data for the weekly report',
          per_payment_max: 2,
          scope: { sellers: ['api.example.com', '0x000000000000000000000000000000000000dEaD'], protocols: ['x402'] },
        },
      },
    ]);
    expect(output[0]!.json.message).toBe(
      `Waiting for the owner to grant or reject it. Budget → Get shows where it stands; once its status is open, put ${SESSION_ID} into Budget (Session ID) under Options of Payment → Create.`,
    );
  });

  it('reads an expiry without a time zone in the workflow’s, and refuses one that is no date before calling Purser', async () => {
    const request = (expiresAt: string, timezone?: string) =>
      run({
        parameters: { resource: 'budget', operation: 'request', total: 5, expiresAt, reason: 'Data', options: {} },
        ...(timezone ? { timezone } : {}),
        answers: () => ({ statusCode: 201, body: AGENT_BUDGET }),
      });
    expect((await request('2026-12-31T18:00:00', 'Europe/Lisbon')).requests[0]!.body!.expires_at).toBe('2026-12-31T18:00:00.000Z');
    expect((await request('2026-07-01T18:00:00', 'Europe/Berlin')).requests[0]!.body!.expires_at).toBe('2026-07-01T16:00:00.000Z');
    expect((await request('2026-12-31T18:00:00', 'America/New_York')).requests[0]!.body!.expires_at).toBe('2026-12-31T23:00:00.000Z');
    await expect(request('next week')).rejects.toThrow('Expires At must be a date and time');
    await expect(run({ parameters: { resource: 'budget', operation: 'request', total: 5, expiresAt: '2026-12-31T00:00:00Z', reason: ' ', options: {} }, answers: [] })).rejects.toThrow(/Reason is empty/);
  });

  it('reads the agent’s budgets, each with a message naming the node’s fields', async () => {
    const one = await run({ parameters: { resource: 'budget', operation: 'get', sessionId: ` ${SESSION_ID} ` }, answers: () => ({ body: AGENT_BUDGET }) });
    expect(one.requests).toEqual([{ method: 'GET', url: `${AGENT_API}/budget/${SESSION_ID}`, credentialType: 'purserApi' }]);
    expect(one.output[0]!.json).toMatchObject({ spent: 1, remaining: 2, message: expect.stringContaining('Budget (Session ID) under Options of Payment → Create') });
    expect(one.output[0]!.json.message).not.toMatch(/GET \/budget|session_id/);
    const many = await run({ parameters: { resource: 'budget', operation: 'getAll' }, answers: () => ({ body: { budgets: [AGENT_BUDGET, { ...AGENT_BUDGET, status: 'closed', closed_reason: 'revoked' }] } }) });
    expect(many.output.map((item) => item.json.message)).toEqual([expect.stringMatching(/^Open:/), 'Closed (revoked): payments can no longer name it. Request a new budget if the task needs more.']);
    await expect(run({ parameters: { resource: 'budget', operation: 'get', sessionId: ' ' }, answers: [] })).rejects.toThrow(/Session ID is empty/);
  });

  it('opens, lists, grants for less and sooner, rejects with a note and revokes as the owner', async () => {
    const opened = await run({
      parameters: { resource: 'budget', operation: 'open', agent: `did:agnic:${AGENT_ID}`, total: 10, expiresAt: '2026-12-31T00:00:00Z', options: { reason: 'Q4 research', rails: ['ledger'] } },
      answers: () => ({ statusCode: 201, body: { id: SESSION_ID } }),
    });
    expect(opened.requests[0]).toEqual({
      method: 'POST',
      url: `${OWNER_API}/payment-sessions`,
      credentialType: 'purserOwnerApi',
      body: { agentId: AGENT_ID, totalUsd: 10, expiresAt: '2026-12-31T00:00:00.000Z', scope: { rails: ['ledger'] }, reason: 'Q4 research' },
    });
    const listed = await run({ parameters: { resource: 'budget', operation: 'getAllAsOwner', filters: { agent: AGENT_ID, status: 'requested' } }, answers: () => ({ body: { sessions: [{ id: 'a' }, { id: 'b' }] } }) });
    expect(listed.requests[0]).toMatchObject({ method: 'GET', url: `${OWNER_API}/payment-sessions`, qs: { agentId: AGENT_ID, status: 'requested' } });
    expect(listed.output.map((item) => item.json.id)).toEqual(['a', 'b']);
    const granted = await run({
      parameters: { resource: 'budget', operation: 'grant', sessionId: SESSION_ID, options: { total: 3, expiresAt: '2026-12-20T12:00:00Z', note: ' $3 is enough ' } },
      answers: () => ({ body: { id: SESSION_ID, status: 'open' } }),
    });
    expect(granted.requests[0]).toMatchObject({ method: 'POST', url: `${OWNER_API}/payment-sessions/${SESSION_ID}/decide`, body: { approve: true, totalUsd: 3, expiresAt: '2026-12-20T12:00:00.000Z', note: '$3 is enough' } });
    const asAsked = await run({ parameters: { resource: 'budget', operation: 'grant', sessionId: SESSION_ID, options: {} }, answers: () => ({ body: {} }) });
    expect(asAsked.requests[0]!.body).toEqual({ approve: true });
    const rejected = await run({ parameters: { resource: 'budget', operation: 'rejectRequest', sessionId: SESSION_ID, note: 'Not this week' }, answers: () => ({ body: {} }) });
    expect(rejected.requests[0]).toMatchObject({ url: `${OWNER_API}/payment-sessions/${SESSION_ID}/decide`, body: { approve: false, note: 'Not this week' } });
    const revoked = await run({ parameters: { resource: 'budget', operation: 'revoke', sessionId: SESSION_ID }, answers: () => ({ body: {} }) });
    expect(revoked.requests[0]).toEqual({ method: 'POST', url: `${OWNER_API}/payment-sessions/${SESSION_ID}/revoke`, credentialType: 'purserOwnerApi' });
  });

  it('charges Payment → Create to the budget named, and explains a refusal by the budget', async () => {
    const create = { resource: 'payment', operation: 'create', amount: 1, toAddress: '0xabc', currency: 'USDC', options: { sessionId: ` ${SESSION_ID} ` } };
    const paid = await run({ parameters: create, answers: () => ({ body: PAYMENT }) });
    expect(paid.requests[0]!.body).toEqual({ amount: 1, currency: 'USDC', to_address: '0xabc', session_id: SESSION_ID });
    const refused = await run({
      parameters: create,
      answers: () => ({ statusCode: 422, body: { error: { code: 'POLICY_VIOLATION', message: `The payment session is closed: nothing can be charged to it. (SESSION_NOT_OPEN; payment intent ${INTENT_ID})` } } }),
    }).then(
      () => undefined,
      (thrown: unknown) => thrown as { message: string; description?: string },
    );
    expect(refused?.message).toBe(`POLICY_VIOLATION: The budget is closed: nothing can be charged to it. (SESSION_NOT_OPEN; payment intent ${INTENT_ID})`);
    expect(refused?.description).toMatch(/^The budget named in Budget \(Session ID\) refused the payment/);
    const invalid = await run({
      parameters: create,
      answers: () => ({ statusCode: 400, body: { error: { code: 'VALIDATION_FAILED', message: 'session_id must be the id of one of your payment sessions' } } }),
    }).then(
      () => undefined,
      (thrown: unknown) => thrown as { message: string },
    );
    expect(invalid?.message).toBe('VALIDATION_FAILED: Budget (Session ID) must be the id of one of your budgets');
  });
});

describe('Transaction → Get Many', () => {
  const transactions = (count: number, from = 0) => Array.from({ length: count }, (_, index) => ({ id: `t${from + index}` }));

  it('follows next_cursor to the last page with Return All', async () => {
    const { output, requests } = await run({
      parameters: { resource: 'transaction', operation: 'getAll', returnAll: true },
      answers: [{ body: { transactions: transactions(50), next_cursor: 'p2' } }, { body: { transactions: transactions(7, 50), next_cursor: null } }],
    });
    expect(output).toHaveLength(57);
    expect(requests.map((request) => request.qs)).toEqual([{ limit: 50 }, { limit: 50, cursor: 'p2' }]);
  });

  it('stops at the limit', async () => {
    const { output } = await run({ parameters: { resource: 'transaction', operation: 'getAll', returnAll: false, limit: 3 }, answers: [{ body: { transactions: transactions(50) } }] });
    expect(output.map((item) => item.json.id)).toEqual(['t0', 't1', 't2']);
  });

  it('fails rather than stop silently at 50 when Purser answers no cursor', async () => {
    await expect(run({ parameters: { resource: 'transaction', operation: 'getAll', returnAll: true }, answers: [{ body: { transactions: transactions(50) } }] })).rejects.toThrow(/only the latest 50/);
    const few = await run({ parameters: { resource: 'transaction', operation: 'getAll', returnAll: true }, answers: [{ body: { transactions: transactions(12) } }] });
    expect(few.output).toHaveLength(12);
  });
});

describe('Paid Request', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

  it('puts a file the seller answered into binary data with its bytes, MIME type and name', async () => {
    const { output } = await run({
      parameters: { resource: 'paidRequest', operation: 'fetch', url: 'https://seller.test/paid/chart.png?size=2', maxAmount: 0.02, method: 'GET', options: {} },
      answers: () => ({
        body: { status: 200, headers: { 'content-type': 'image/png' }, body: PNG.toString('base64'), body_encoding: 'base64', payment: { intent_id: INTENT_ID, status: 'settled' } },
      }),
    });
    const [item] = output;
    expect(Buffer.from(item!.binary!.data!.data, 'base64').equals(PNG)).toBe(true);
    expect(item!.binary!.data).toMatchObject({ mimeType: 'image/png', fileName: 'chart.png' });
    expect(item!.json).toMatchObject({ status: 200, payment: { status: 'settled' }, file: { field: 'data', file_name: 'chart.png', mime_type: 'image/png', size: PNG.length } });
    expect(item!.json.body).toBeUndefined();
  });

  it('pays through /pay/fetch, puts the protocol and an MPP seller’s receipt in the output, and derives the key earlier versions derived', async () => {
    const answer = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"headlines":["Rain in Lisbon"]}',
      body_encoding: 'utf8',
      payment_response: null,
      payment: { intent_id: INTENT_ID, status: 'processing', transaction_hash: '0xabc', protocol: 'mpp' },
      mpp_receipt: { method: 'evm', status: 'success', reference: '0xabc', timestamp: '2026-12-01T00:00:00Z', confirmed: true },
    };
    const { output, requests } = await run({
      parameters: { resource: 'paidRequest', operation: 'fetch', url: 'https://seller.test/headlines', maxAmount: 0.02, method: 'GET', waitUntilFinal: false, options: {} },
      answers: () => ({ body: answer }),
    });
    const body = { url: 'https://seller.test/headlines', method: 'GET', max_amount: 0.02 };
    expect(requests).toMatchObject([{ method: 'POST', url: 'https://purser.test/functions/v1/mcp-server/pay/fetch', credentialType: 'purserApi', body }]);
    expect(output[0]!.json).toMatchObject({ data: { headlines: ['Rain in Lisbon'] }, payment: { protocol: 'mpp' }, mpp_receipt: { reference: '0xabc', confirmed: true } });
    // Over the endpoint's first name: a payment that waited for approval across the upgrade keeps its key.
    const scope = { instanceId: 'instance-1', workflowId: 'workflow-1', executionId: 'execution-1', nodeName: 'Purser' };
    expect(requests[0]!.headers).toEqual({ 'Idempotency-Key': deriveRequestKey(scope, requestDigest('/x402/fetch', body), 0) });
  });

  it('keeps text in the JSON output unless the Response Format is File', async () => {
    const answer = { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' }, body: 'a,b\n1,2\n', body_encoding: 'utf8' };
    const text = await run({ parameters: { resource: 'paidRequest', operation: 'fetch', url: 'https://seller.test/data.csv', maxAmount: 1, method: 'GET', options: {} }, answers: () => ({ body: answer }) });
    expect(text.output[0]!.binary).toBeUndefined();
    expect(text.output[0]!.json.body).toBe('a,b\n1,2\n');
    const file = await run({
      parameters: { resource: 'paidRequest', operation: 'fetch', url: 'https://seller.test/data.csv', maxAmount: 1, method: 'GET', options: { responseFormat: 'file', binaryPropertyName: 'csv' } },
      answers: () => ({ body: answer }),
    });
    expect(Buffer.from(file.output[0]!.binary!.csv!.data, 'base64').toString('utf8')).toBe('a,b\n1,2\n');
    expect(file.output[0]!.binary!.csv!.mimeType).toBe('text/csv');
  });

  it('outputs a payment that waits for approval (202) as JSON: where it stands in payment, the price, and what to do in the node’s words', async () => {
    const { output, requests } = await run({
      parameters: { resource: 'paidRequest', operation: 'fetch', url: 'https://seller.test/paid/chart.png', maxAmount: 1, method: 'GET', options: { responseFormat: 'file' } },
      answers: () => ({
        statusCode: 202,
        body: WAITING_FOR_APPROVAL,
      }),
    });
    // Nothing to wait for: the owner decides.
    expect(requests).toHaveLength(1);
    expect(output[0]!.binary).toBeUndefined();
    expect(output[0]!.json).toEqual({
      payment: { intent_id: INTENT_ID, status: 'pending_approval', transaction_hash: null },
      amount: 0.5,
      amount_exact: '0.5',
      pay_to: '0x00000000000000000000000000000000000000aa',
      message: PAYMENT_STATUSES.pending_approval!.message,
      idempotency_key: requests[0]!.headers!['Idempotency-Key'],
    });
  });

  describe('Wait Until Final', () => {
    const fetchParameters = (extra: IDataObject = {}) => ({ resource: 'paidRequest', operation: 'fetch', url: 'https://seller.test/paid', maxAmount: 0.02, method: 'GET', options: {}, ...extra });
    const sellerAnswer = (payment: IDataObject | null, extra: IDataObject = {}) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"forecast":"sunny"}',
      body_encoding: 'utf8',
      payment_response: null,
      payment,
      ...extra,
    });
    const processing = { intent_id: INTENT_ID, status: 'processing', transaction_hash: '0xabc', protocol: 'x402' };
    /** /pay/fetch answers `fetched`; each read of the payment answers the next of `reads` (the last one again once they run out). */
    const answering = (fetched: object, reads: string[]) => {
      let read = 0;
      return (request: RecordedRequest): ScriptedAnswer =>
        request.method === 'POST' ? { body: fetched } : { body: { ...PAYMENT, status: reads[Math.min(read++, reads.length - 1)] } };
    };

    it('is on by default: reads the payment as Payment → Get does until it is final, and outputs the final status', async () => {
      const { output, requests } = await run({ parameters: fetchParameters(), answers: answering(sellerAnswer(processing), ['processing', 'settled']) });
      expect(requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
        'POST /functions/v1/mcp-server/pay/fetch',
        `GET /functions/v1/mcp-server/payment/${INTENT_ID}`,
        `GET /functions/v1/mcp-server/payment/${INTENT_ID}`,
      ]);
      expect(output[0]!.json).toMatchObject({ status: 200, data: { forecast: 'sunny' }, payment: { ...processing, status: 'settled' } });
    });

    it('ends on a final status that is not settled too', async () => {
      const { output } = await run({ parameters: fetchParameters(), answers: answering(sellerAnswer(processing), ['failed']) });
      expect(output[0]!.json.payment).toMatchObject({ status: 'failed' });
    });

    it('outputs the status as it stands once Wait Up To (Seconds) has passed', async () => {
      const { output, requests } = await run({ parameters: fetchParameters({ options: { waitSeconds: 1 } }), answers: answering(sellerAnswer(processing), ['processing']) });
      expect(requests.length).toBeGreaterThanOrEqual(2);
      expect(output[0]!.json.payment).toMatchObject({ status: 'processing' });
    });

    it('answers at once when it is off, or when there is nothing to wait for', async () => {
      const off = await run({ parameters: fetchParameters({ waitUntilFinal: false }), answers: answering(sellerAnswer(processing), ['settled']) });
      expect(off.requests).toHaveLength(1);
      expect(off.output[0]!.json.payment).toMatchObject({ status: 'processing' });
      // A seller that asked for no payment, and a call paid through a channel, whose payment stays open with the channel.
      const free = await run({ parameters: fetchParameters(), answers: answering(sellerAnswer(null), ['settled']) });
      expect(free.requests).toHaveLength(1);
      const voucher = { amount_exact: '0.01', cumulative_exact: '0.03', deposit_exact: '1' };
      const channel = await run({ parameters: fetchParameters(), answers: answering(sellerAnswer(processing, { channel_voucher: voucher }), ['settled']) });
      expect(channel.requests).toHaveLength(1);
      expect(channel.output[0]!.json).toMatchObject({ payment: { status: 'processing' }, channel_voucher: voucher });
    });

    it('stops when the execution is cancelled', async () => {
      const cancel = new AbortController();
      const waiting = run({ parameters: fetchParameters(), cancelSignal: cancel.signal, answers: answering(sellerAnswer(processing), ['processing']) });
      cancel.abort();
      await expect(waiting).rejects.toThrow();
    });
  });

  it('gets the price without paying: one call to the requirements endpoint, no idempotency key', async () => {
    const { output, requests } = await run({
      parameters: { resource: 'paidRequest', operation: 'getPrice', url: 'https://seller.test/paid', method: 'POST', body: '{"q":1}', headers: { header: [{ name: 'Accept', value: 'application/json' }] } },
      answers: () => ({ body: EXAMPLES['paidRequest.getPrice']!.answer }),
    });
    expect(requests).toEqual([
      {
        method: 'POST',
        url: 'https://purser.test/functions/v1/mcp-server/x402/requirements',
        credentialType: 'purserApi',
        body: { url: 'https://seller.test/paid', method: 'POST', headers: { Accept: 'application/json' }, body: '{"q":1}' },
      },
    ]);
    expect(output[0]!.json).toMatchObject({ payment_required: true, price: '0.01', price_amount: 0.01 });
  });
});

describe('the Purser Trigger', () => {
  const trigger = new PurserTrigger();
  const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const URL_OF_NODE = 'https://n8n.test/webhook/abc/webhook';

  it('offers exactly the events an endpoint can subscribe to at Purser', () => {
    const events = trigger.description.properties.find((property) => property.name === 'events')!.options as INodePropertyOptions[];
    expect(events.map((event) => event.value).sort()).toEqual([...WEBHOOK_SUBSCRIBABLE_EVENTS].sort());
  });

  it('registers its URL for the chosen events on activation, keeps the secret, and deletes the endpoint on deactivation', async () => {
    const fake = fakeN8n({
      parameters: { events: ['settlement.completed', 'policy.violation'] },
      webhookUrl: URL_OF_NODE,
      answers: [{ statusCode: 201, body: { endpoint: { id: 'endpoint-1', url: URL_OF_NODE, events: ['policy.violation', 'settlement.completed'], enabled: true }, secret: SECRET } }, { body: { id: 'endpoint-1', deleted: true } }],
    });
    const hooks = trigger.webhookMethods.default;
    expect(await hooks.checkExists.call(fake.context)).toBe(false);
    expect(await hooks.create.call(fake.context)).toBe(true);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', url: 'https://purser.test/api/v1/webhooks', credentialType: 'purserOwnerApi', body: { url: URL_OF_NODE, events: ['settlement.completed', 'policy.violation'] } });
    expect(fake.staticData).toEqual({ endpointId: 'endpoint-1', secret: SECRET });
    expect(await hooks.delete.call(fake.context)).toBe(true);
    expect(fake.requests[1]).toMatchObject({ method: 'DELETE', url: 'https://purser.test/api/v1/webhooks/endpoint-1' });
    expect(fake.staticData).toEqual({});
  });

  it('finds its endpoint at Purser, and replaces one registered for other events', async () => {
    const endpoint = { id: 'endpoint-1', url: URL_OF_NODE, events: ['settlement.completed'], enabled: true };
    const same = fakeN8n({ parameters: { events: ['settlement.completed'] }, webhookUrl: URL_OF_NODE, staticData: { endpointId: 'endpoint-1', secret: SECRET }, answers: [{ body: endpoint }] });
    expect(await trigger.webhookMethods.default.checkExists.call(same.context)).toBe(true);
    const other = fakeN8n({
      parameters: { events: ['settlement.completed', 'intent.created'] },
      webhookUrl: URL_OF_NODE,
      staticData: { endpointId: 'endpoint-1', secret: SECRET },
      answers: [{ body: endpoint }, { body: { deleted: true } }],
    });
    expect(await trigger.webhookMethods.default.checkExists.call(other.context)).toBe(false);
    expect(other.requests.map((request) => request.method)).toEqual(['GET', 'DELETE']);
    const gone = fakeN8n({ parameters: { events: ['settlement.completed'] }, staticData: { endpointId: 'endpoint-1', secret: SECRET }, answers: [{ statusCode: 404, body: { error: { code: 'NOT_FOUND', message: 'Webhook endpoint not found' } } }] });
    expect(await trigger.webhookMethods.default.checkExists.call(gone.context)).toBe(false);
    expect(gone.staticData).toEqual({});
  });

  const event = { id: 'evt_1', type: 'settlement.completed', createdAt: '2026-01-01T00:00:00.000Z', data: { intent: { id: INTENT_ID } } };
  const deliver = (body: object, headers: (raw: Buffer) => Record<string, string>, events = ['settlement.completed']) => {
    const rawBody = Buffer.from(JSON.stringify(body));
    const fake = fakeN8n({ parameters: { events }, staticData: { endpointId: 'endpoint-1', secret: SECRET }, request: { headers: headers(rawBody), rawBody } });
    return trigger.webhook.call(fake.context).then((result) => ({ result, response: fake.response }));
  };
  const now = () => String(Math.floor(Date.now() / 1000));
  const signed = (raw: Buffer, secret = SECRET, timestamp = now()) => ({
    'webhook-id': 'evt_1',
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signDelivery(secret, 'evt_1', timestamp, raw)}`,
  });

  it('starts the workflow with the event when the signature is Purser’s', async () => {
    const { result } = await deliver(event, (raw) => ({ ...signed(raw), 'webhook-signature': `v1a,ignored v1,${signDelivery(SECRET, 'evt_1', signed(raw)['webhook-timestamp'], raw)}` }));
    expect(result.workflowData).toEqual([[{ json: event }]]);
  });

  it('answers 401 and starts nothing for a forged, altered, stale or unsigned delivery', async () => {
    const forged = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const cases: Array<(raw: Buffer) => Record<string, string>> = [
      (raw) => signed(raw, forged),
      (raw) => ({ ...signed(raw), 'webhook-id': 'evt_2' }),
      (raw) => signed(raw, SECRET, String(Math.floor(Date.now() / 1000) - 600)),
      (raw) => ({ ...signed(raw), 'webhook-signature': '' }),
      () => ({}),
    ];
    for (const headers of cases) {
      const { result, response } = await deliver(event, headers);
      expect(result).toEqual({ noWebhookResponse: true });
      expect(response.status).toBe(401);
    }
  });

  it('acknowledges an event it was not asked for without starting the workflow', async () => {
    const { result } = await deliver({ ...event, type: 'intent.created' }, (raw) => signed(raw));
    expect(result.workflowData).toBeUndefined();
  });
});
