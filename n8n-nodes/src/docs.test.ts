/**
 * The docs site's n8n page (docs-content/docs/n8n.md) against the nodes it documents: its table
 * names every operation of the Purser node, with the credential it uses and the endpoint it
 * calls, and nothing else; its output tables name every field Paid Request → Fetch and the
 * payment operations output, and its status table every status, as the node explains it; its
 * trigger table names every event; its approval workflow uses only fields the nodes have and
 * loops while a payment is open. A node that grows an operation or an output field fails here
 * until the page describes it.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentPaymentView, INTENT_STATUSES, TERMINAL_INTENT_STATUSES, x402SignedPaymentView, x402UpstreamResponseView } from '@purser/core';
import { codeBlocks } from '@purser/docs-content';
import { OWNER_OPERATIONS, Purser } from '../nodes/Purser/Purser.node';
import { PAYMENT_STATUSES } from '../nodes/Purser/shared/paymentStatus';
import { PURSER_EVENTS } from '../nodes/PurserTrigger/events';
import { documentedFields, n8nPage, outputFields as fieldsOf, part as sectionOf, subpart, tableRows } from '../test/support/docs-page';
import { fakeN8n, type ScriptedAnswer } from '../test/support/fake-n8n';
import { EXAMPLES, INTENT_ID, WAITING_FOR_APPROVAL } from '../test/support/operation-examples';

const node = new Purser();
const AGENT_API = '/functions/v1/mcp-server';
let page: string;

beforeAll(async () => {
  page = await n8nPage();
});

const part = (heading: string) => sectionOf(page, heading);

interface Offered {
  resource: string;
  operation: string;
  value: string;
  resourceValue: string;
}

function offeredOperations(): Offered[] {
  const resources = node.description.properties.find((property) => property.name === 'resource')!.options as INodePropertyOptions[];
  return node.description.properties
    .filter((property) => property.name === 'operation')
    .flatMap((property) => {
      const resourceValue = String(property.displayOptions!.show!.resource![0]);
      const resource = resources.find((option) => option.value === resourceValue)!.name;
      return (property.options as INodePropertyOptions[]).map((option) => ({ resource, resourceValue, operation: option.name, value: String(option.value) }));
    });
}

describe('the n8n page of the docs', () => {
  it('lists every operation of the Purser node, and only those, with the credential it needs', () => {
    const rows = tableRows(part('Operations')).map(([resource, operation, credential]) => `${resource} → ${operation} (${credential})`);
    const expected = offeredOperations().map(({ resource, operation, value }) => `${resource} → ${operation} (${OWNER_OPERATIONS.includes(value) ? 'owner' : 'agent'})`);
    expect(rows.sort()).toEqual(expected.sort());
  });

  it('names the endpoint each operation calls', async () => {
    const rows = tableRows(part('Operations'));
    for (const { resource, operation, resourceValue, value } of offeredOperations()) {
      const endpoints = [...rows.find((row) => row[0] === resource && row[1] === operation)![4]!.matchAll(/`([A-Z]+) ([^`?]+)[^`]*`/g)].map(([, method, path]) => ({
        method,
        pattern: new RegExp(`^${path!.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }));
      const example = EXAMPLES[`${resourceValue}.${value}`]!;
      const fake = fakeN8n({ parameters: { resource: resourceValue, operation: value, ...example.parameters }, answers: () => ({ body: example.answer }) });
      await node.execute.call(fake.context);
      for (const request of fake.requests) {
        const path = new URL(request.url).pathname;
        const documented = path.startsWith(AGENT_API) ? path.slice(AGENT_API.length) : path;
        expect(
          endpoints.some((endpoint) => endpoint.method === request.method && endpoint.pattern.test(documented)),
          `${resource} → ${operation}: ${request.method} ${documented}`,
        ).toBe(true);
      }
    }
  });

  it("lists every event of the Purser Trigger by the name and value the node shows", () => {
    const rows = tableRows(part('Purser Trigger')).map(([event]) => event);
    expect(rows.sort()).toEqual(PURSER_EVENTS.map((event) => `${event.name} (\`${String(event.value)}\`)`).sort());
  });

  it('names the options it explains as the node names them', () => {
    const all = (properties: INodeProperties[]): Array<INodeProperties | INodePropertyOptions> =>
      properties.flatMap((property) => [property, ...((property.options ?? []) as Array<INodeProperties | INodePropertyOptions>), ...all(((property.options ?? []) as INodeProperties[]).filter((option) => 'type' in option))]);
    const names = new Set(all(node.description.properties).map((entry) => ('displayName' in entry ? entry.displayName : entry.name)));
    for (const name of ['Derive Key From', 'Idempotency Key', 'Max Price', 'Response Format', 'File', 'Return All', 'Limit']) expect(names, name).toContain(name);
    expect([...names].some((name) => String(name).startsWith('Run and Item'))).toBe(true);
  });

  it('waits for approval with fields the nodes have, for as long as the payment is open', () => {
    const [recipe] = codeBlocks(part('Waiting for approval')).filter((block) => block.lang === 'json');
    const workflow = JSON.parse(recipe!.text) as { nodes: Array<{ type: string; parameters: Record<string, unknown> }> };
    const purserNodes = workflow.nodes.filter((entry) => entry.type === 'n8n-nodes-purser.purser');
    expect(purserNodes.map((entry) => `${String(entry.parameters.resource)}.${String(entry.parameters.operation)}`)).toEqual(['payment.create', 'payment.get']);
    for (const { parameters } of purserNodes) {
      const shown = node.description.properties.filter((property) => {
        const show = property.displayOptions?.show;
        return !show || ((show.resource ?? [parameters.resource]).includes(parameters.resource as string) && (show.operation ?? [parameters.operation]).includes(parameters.operation as string));
      });
      for (const name of Object.keys(parameters)) expect(shown.map((property) => property.name), `${String(parameters.operation)}: ${name}`).toContain(name);
    }
    const open = INTENT_STATUSES.filter((status) => !TERMINAL_INTENT_STATUSES.includes(status));
    expect(recipe!.text).toContain(`[${open.map((status) => `'${status}'`).join(', ')}].includes($json.status)`);
  });

  describe('what the nodes output', () => {
    const outputs = () => part('What the nodes output');

    /** An answer that holds every field of the API's schema, and only those. */
    function complete(schema: { shape: object; strict(): { parse(value: unknown): unknown } }, answer: Record<string, unknown>): Record<string, unknown> {
      expect(Object.keys(answer).sort()).toEqual(Object.keys(schema.shape).sort());
      schema.strict().parse(answer);
      return answer;
    }

    /** The fields of the node's output for these parameters and answers, as the page names them (`payment.status`). */
    async function outputFields(parameters: IDataObject, answers: (request: { method: string }) => ScriptedAnswer): Promise<string[]> {
      const fake = fakeN8n({ parameters, answers });
      const [items] = await node.execute.call(fake.context);
      return items!.flatMap(({ json }) => fieldsOf(json));
    }

    it('lists every field Paid Request → Fetch outputs, and no other', async () => {
      const seller = {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"forecast":"sunny"}',
        body_encoding: 'utf8',
        payment_response: { success: true, transaction: '0xabc', network: 'eip155:84532', payer: '0x01' },
        payment: { intent_id: INTENT_ID, status: 'processing', transaction_hash: '0xabc', protocol: 'x402' },
        mpp_receipt: { method: 'evm', status: 'success', reference: '0xabc', timestamp: '2026-12-01T00:00:00Z', confirmed: true },
        seller_receipt: { format: 'jws', verified: true, problems: [], signer: 'kid-1', claims: {}, receipt: {} },
        channel_voucher: null,
      };
      const waiting = { ...WAITING_FOR_APPROVAL, message: 'The payment waits for the owner to approve it.' };
      const voucher = { amount_exact: '0.01', cumulative_exact: '0.03', deposit_exact: '1' };
      const fetch = { resource: 'paidRequest', operation: 'fetch', url: 'https://seller.test/paid', maxAmount: 1, method: 'GET', options: {} };
      // Purser's answers: the seller's JSON (Wait Until Final reads the payment once), a file, a channel's call, a payment waiting for the owner.
      const answered = (first: object, statusCode = 200) => (request: { method: string }) =>
        request.method === 'POST' ? { statusCode, body: first } : { body: { ...EXAMPLES['payment.get']!.answer as object, status: 'settled' } };
      const fields = new Set([
        ...(await outputFields(fetch, answered(complete(x402UpstreamResponseView, seller)))),
        ...(await outputFields(fetch, answered(complete(x402UpstreamResponseView, { ...seller, headers: { 'content-type': 'image/png' }, body: 'iVBORw0KGgo=', body_encoding: 'base64' })))),
        ...(await outputFields(fetch, answered(complete(x402UpstreamResponseView, { ...seller, channel_voucher: voucher })))),
        ...(await outputFields(fetch, answered(complete(x402SignedPaymentView, waiting), 202))),
      ]);
      expect(documentedFields(page, 'Paid Request → Fetch').sort()).toEqual([...fields].sort());
    });

    it('lists every field Payment → Create and Payment → Get output, and no other', async () => {
      const payment = complete(agentPaymentView, {
        intent_id: INTENT_ID,
        status: 'settled',
        amount: 1.25,
        amount_exact: '1.25',
        currency: 'USDC',
        to_address: '0xabc',
        rail: 'ledger',
        sandbox: false,
        failure_code: null,
        failure_message: null,
        settled_at: '2026-12-01T00:00:00Z',
        message: 'Settled.',
      });
      const fields = new Set<string>();
      for (const operation of ['create', 'get']) {
        const parameters = { resource: 'payment', operation, ...EXAMPLES[`payment.${operation}`]!.parameters };
        for (const field of await outputFields(parameters, () => ({ body: payment }))) fields.add(field);
      }
      expect(documentedFields(page, 'Payment → Create and Payment → Get').sort()).toEqual([...fields].sort());
    });

    it('explains every payment status Purser reports, whether it is final, in the words of the node’s messages', () => {
      expect(Object.keys(PAYMENT_STATUSES).sort()).toEqual([...INTENT_STATUSES].sort());
      const rows = tableRows(subpart(outputs(), 'Payment statuses')).map(([status, final, meaning]) => ({
        status: status!.replace(/`/g, ''),
        final: final === 'yes',
        message: meaning!.replace(/`/g, ''),
      }));
      expect(rows).toEqual(INTENT_STATUSES.map((status) => ({ status, final: TERMINAL_INTENT_STATUSES.includes(status), message: PAYMENT_STATUSES[status]!.message })));
    });
  });
});
