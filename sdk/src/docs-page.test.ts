/**
 * The docs site's SDK page (docs-content/docs/sdk.md, `/docs#sdk`) cannot drift from the SDK:
 * its operations table has one row per operation of OPERATIONS with the operation's method and
 * path, one row per method of the two clients, and each row's call, made with a recording
 * fetch, sends the HTTP operation the row names. The cap it documents is the SDK's.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_X402_MAX_AMOUNT, PurserAgentClient } from './agent-client';
import { refreshSession, signIn, signUp } from './auth';
import { BASE_PATHS, OPERATIONS } from './operations';
import { PurserOwnerClient } from './owner-client';

const PAGE = fileURLToPath(new URL('../../docs-content/docs/sdk.md', import.meta.url));
const ORIGIN = 'http://sdk.test';
const ID = '00000000-0000-4000-8000-000000000001';

interface Row {
  call: string;
  /** `purser.agents.get`: the call without its arguments. */
  name: string;
  method: string;
  /** With its query, if the row names one. */
  target: string;
  operationId: string;
}

function tableRows(markdown: string): Row[] {
  const section = markdown.slice(markdown.indexOf('## Every operation'), markdown.indexOf('\n## ', markdown.indexOf('## Every operation') + 1));
  return [...section.matchAll(/^\| `([^`]+)` \| `([A-Z]+) ([^`]+)` \| `([A-Za-z0-9]+)` \|$/gm)].map(([, call, method, target, operationId]) => ({
    call: call!,
    name: call!.slice(0, call!.indexOf('(')),
    method: method!,
    target: target!,
    operationId: operationId!,
  }));
}

type Callable = (...args: unknown[]) => Promise<unknown>;

/** Every method of a client: its namespaces' functions and its class's methods. */
function methodsOf(client: object, prefix: string): Map<string, Callable> {
  const found = new Map<string, Callable>();
  for (const [name, value] of Object.entries(client)) {
    if (typeof value === 'function') found.set(`${prefix}.${name}`, value as Callable);
    else if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) for (const entry of methodsOf(value, `${prefix}.${name}`)) found.set(...entry);
  }
  const prototype = Object.getPrototypeOf(client) as object;
  if (prototype !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const value = (client as Record<string, unknown>)[name];
      if (name !== 'constructor' && typeof value === 'function') found.set(`${prefix}.${name}`, (value as Callable).bind(client));
    }
  }
  return found;
}

const markdown = readFileSync(PAGE, 'utf8');
const rows = tableRows(markdown);
const sent = new Map<string, string[]>();
let current = '';
const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
  const url = new URL(String(input));
  sent.get(current)!.push(`${init.method ?? 'GET'} ${url.pathname}${url.search}`);
  return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
}) as typeof globalThis.fetch;
const methods = new Map<string, Callable>([
  ...methodsOf(new PurserOwnerClient({ baseUrl: ORIGIN, token: 'token', fetch }), 'purser'),
  ...methodsOf(new PurserAgentClient({ baseUrl: ORIGIN, did: 'did:agnic:a', apiKey: 'key', fetch }), 'agent'),
  ['signUp', (body: unknown) => signUp({ baseUrl: ORIGIN, fetch }, body as Parameters<typeof signUp>[1])],
  ['signIn', (body: unknown) => signIn({ baseUrl: ORIGIN, fetch }, body as Parameters<typeof signIn>[1])],
  ['refreshSession', () => refreshSession({ baseUrl: ORIGIN, fetch }, 'refresh-token')],
] as Array<[string, Callable]>);

beforeAll(async () => {
  for (const row of rows) {
    const method = methods.get(row.name);
    if (!method) continue;
    current = row.name;
    sent.set(row.name, []);
    // An id where the path has one; where a body, query or options go, an empty object.
    await method(...(row.target.includes('{') ? [ID, {}, {}] : [{}, {}]));
  }
});

describe('the SDK page of the docs', () => {
  it('has a row for every operation of the SDK, with its method and path, and no other', () => {
    expect(rows.length).toBeGreaterThanOrEqual(50);
    expect(rows.map((row) => row.operationId).sort()).toEqual(Object.keys(OPERATIONS).sort());
    const wrong = rows.flatMap((row) => {
      const operation = OPERATIONS[row.operationId as keyof typeof OPERATIONS];
      const documented = `${row.method} ${row.target.split('?')[0]}`;
      const actual = `${operation.method} ${BASE_PATHS[operation.surface]}${operation.path}`;
      return documented === actual ? [] : [`${row.operationId}: the page says ${documented}, the SDK sends ${actual}`];
    });
    expect(wrong).toEqual([]);
  });

  it('has a row for every method of the clients and the session functions, and each row’s call sends its operation', () => {
    expect(rows.map((row) => row.name).sort()).toEqual([...methods.keys()].sort());
    const wrong = rows.flatMap((row) => {
      const expected = `${row.method} ${row.target.replace(/\{[A-Za-z]+\}/g, ID)}`;
      const requests = sent.get(row.name) ?? [];
      return requests.length === 1 && requests[0] === expected ? [] : [`${row.call}: expected ${expected}, sent ${requests.join(', ') || 'nothing'}`];
    });
    expect(wrong).toEqual([]);
  });

  it('documents the default price cap the SDK applies, and the features of the package', () => {
    expect(markdown).toContain(`$${Number(DEFAULT_X402_MAX_AMOUNT).toFixed(2)} unless you say otherwise`);
    for (const term of ['npm install @purser/sdk', 'PurserOwnerClient', 'PurserAgentClient', 'psk_', 'pak_', 'wrapFetch(fetch', 'for await', '.withResponse()', 'verifyWebhook', 'X402PriceCapError']) {
      expect(markdown, term).toContain(term);
    }
  });
});
