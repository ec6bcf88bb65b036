/**
 * The docs site's n8n page (docs-content/docs/n8n.md) against the nodes it documents: its table
 * names every operation of the Purser node, with the credential it uses and the endpoint it
 * calls, and nothing else; its trigger table names every event; its approval workflow uses
 * only fields the nodes have and loops while a payment is open. A node that grows an operation
 * fails here until the page describes it.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTENT_STATUSES, TERMINAL_INTENT_STATUSES } from '@purser/core';
import { codeBlocks, loadDocSections } from '@purser/docs-content';
import { OWNER_OPERATIONS, Purser } from '../nodes/Purser/Purser.node';
import { PURSER_EVENTS } from '../nodes/PurserTrigger/events';
import { fakeN8n } from '../test/support/fake-n8n';
import { EXAMPLES } from '../test/support/operation-examples';

const node = new Purser();
const AGENT_API = '/functions/v1/mcp-server';
let page: string;

beforeAll(async () => {
  const section = (await loadDocSections()).find((candidate) => candidate.id === 'n8n');
  if (!section) throw new Error('docs-content/docs/n8n.md is missing');
  page = section.body;
});

/** The body of the `## heading` section, up to the next `## `. */
function part(heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`n8n.md has no "## ${heading}"`);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

/** The rows of the first markdown table in `text`, as cells, without the header and the rule. */
function tableRows(text: string): string[][] {
  const lines = text.split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()));
}

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
});
