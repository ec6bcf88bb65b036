/**
 * n8n workflow JSON for the tests, as `n8n import:workflow` takes it: nodes with their
 * parameters and credentials, and connections between them.
 */
import { randomUUID } from 'node:crypto';

export const PURSER_NODE = 'n8n-nodes-purser.purser';
export const PURSER_TRIGGER = 'n8n-nodes-purser.purserTrigger';

export interface WorkflowNode {
  id: string;
  name: string;
  type: string;
  typeVersion: number;
  position: [number, number];
  parameters: object;
  credentials?: Record<string, { id: string; name: string }>;
  [setting: string]: unknown;
}

export type Credentials = Record<string, { id: string; name: string }>;

export function node(name: string, type: string, typeVersion: number, parameters: object, extra: Partial<WorkflowNode> = {}): WorkflowNode {
  return { id: randomUUID(), name, type, typeVersion, position: [0, 0], parameters, ...extra };
}

export function purserNode(name: string, parameters: object, credentials: Credentials, settings: object = {}): WorkflowNode {
  return node(name, PURSER_NODE, 1, parameters, { credentials, ...settings });
}

export const manualTrigger = (name = 'Start') => node(name, 'n8n-nodes-base.manualTrigger', 1, {});

/** A Set node that outputs one item with this JSON. */
export const jsonItem = (name: string, json: object) =>
  node(name, 'n8n-nodes-base.set', 3.4, { mode: 'raw', jsonOutput: JSON.stringify(json), options: {} });

/** An IF node on one boolean expression: true items leave by output 0, the others by output 1. */
export const ifTrue = (name: string, expression: string) =>
  node(name, 'n8n-nodes-base.if', 2.2, {
    conditions: {
      options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
      conditions: [{ id: randomUUID(), leftValue: `={{ ${expression} }}`, rightValue: '', operator: { type: 'boolean', operation: 'true', singleValue: true } }],
      combinator: 'and',
    },
    options: {},
  });

/** A Wait node that waits in the execution (under 65 s n8n keeps the execution running). */
export const waitSeconds = (name: string, seconds: number) =>
  node(name, 'n8n-nodes-base.wait', 1.1, { resume: 'timeInterval', amount: seconds, unit: 'seconds' }, { webhookId: randomUUID() });

/** [from, to] or [from, to, output of `from`]. */
export type Edge = [string, string] | [string, string, number];

export function workflowOf(id: string, name: string, nodes: WorkflowNode[], edges: Edge[]) {
  const connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: 0 }>> }> = {};
  for (const [from, to, output = 0] of edges) {
    const main = (connections[from] ??= { main: [] }).main;
    while (main.length <= output) main.push([]);
    main[output]!.push({ node: to, type: 'main', index: 0 });
  }
  const placed = nodes.map((entry, index) => ({ ...entry, position: [index * 220, 0] as [number, number] }));
  return { id, name, active: false, nodes: placed, connections, settings: { executionOrder: 'v1' } };
}
