/**
 * The client recipes of the docs' Workflow recipes and MCP API sections, taken from the markdown
 * and run against a started product (the API on a real port, a payments worker on a real
 * Temporal dev server, the sandbox chain and its paid x402 API):
 * - each MCP client configuration (Claude Code's command, Claude Desktop's mcp-remote bridge,
 *   Cursor, VS Code) is read the way its client reads it, and the official MCP SDK client
 *   connects with exactly the URL and headers it yields, lists the tools and reads the balance;
 * - the TypeScript SDK client of the MCP API section runs as a reader would run it;
 * - each Make "Make a request" module is sent as Make sends it (method, URL, headers, raw JSON
 *   body with its content type, mapped values filled in), and its effect is checked in the ledger
 *   and on chain.
 * The clients themselves (Claude, Cursor, VS Code, mcp-remote, Make) cannot run here: they are
 * desktop apps or hosted services. What they would send is what these tests send.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { docRecipe, EXAMPLE_DID, EXAMPLE_KEY, EXAMPLE_URL, fillIn } from './support/doc-recipes';
import { agentLedgerUsdc, atomicDollars, payerAndPayee, type PayingAgent } from './support/paying-agents';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CORE_TOOLS = ['get_balance', 'make_payment', 'list_transactions', 'get_info'];


let chain: EvmChain;
let env: TemporalTestEnv;
let productUrl: string;
let payer: PayingAgent;
let payee: PayingAgent;



/** The placeholders of a recipe, filled in with the payer's URL, DID and key. */
const forPayer = () => ({ [EXAMPLE_URL]: productUrl, [EXAMPLE_DID]: payer.did });

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  const { app } = env.testApp;
  productUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  ({ payer, payee } = await payerAndPayee(env, { payer: 'Recipes payer', payee: 'Recipes payee' }));
}, 300_000);

afterAll(async () => {
  await env?.close();
  await chain?.close();
});

/** Connects the official SDK client with exactly `url` and `headers`, lists the tools, reads the balance. */
async function connectListAndReadBalance(url: string, headers: Record<string, string>) {
  expect(Object.keys(headers).sort()).toEqual(['Authorization', 'X-Agent-DID']);
  const client = new Client({ name: 'docs-recipe', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(CORE_TOOLS));
    const balance = (await client.callTool({ name: 'get_balance', arguments: {} })) as CallToolResult;
    expect(balance.isError ?? false, JSON.stringify(balance.content)).toBe(false);
    const content = balance.structuredContent as { did: string; balances: { USDC: { ledger_exact: string } } };
    expect(content.did).toBe(payer.did);
    expect(atomicDollars(content.balances.USDC.ledger_exact)).toBe(await agentLedgerUsdc(env.testApp.app, payer));
  } finally {
    await client.close();
  }
}

/** `Name: value` as Claude Code and mcp-remote split a header argument. */
function splitHeader(argument: string): [string, string] {
  const match = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(argument);
  if (!match) throw new Error(`not a header: ${argument}`);
  return [match[1]!, match[2]!];
}

/** The words bash makes of a shell recipe when it runs `command`: each call's arguments. */
function argumentsOf(script: string, command: string, variables: Record<string, string>): Promise<string[][]> {
  // The command is a shell function that prints its arguments, so bash does the quoting and the
  // variable expansion exactly as in the reader's shell, and nothing is installed or called.
  const program = `${command}() { printf '%s\\0' "$@"; printf '\\n'; }\n${script}`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${program}`], { env: { PATH: process.env.PATH ?? '', ...variables } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`bash exited with ${code}: ${stderr}`));
      else resolve(stdout.split('\0\n').filter(Boolean).map((line) => line.split('\0')));
    });
  });
}

describe('the MCP client recipes', () => {
  it('need both headers: the endpoint refuses a client without the key', async () => {
    const client = new Client({ name: 'docs-recipe', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('/functions/v1/mcp-server/mcp', productUrl), { requestInit: { headers: { 'X-Agent-DID': payer.did } } });
    await expect(client.connect(transport)).rejects.toThrow(/401|UNAUTHORIZED/);
  });

  it('Claude Code: `claude mcp add --transport http` with the two headers connects and reads the balance', async () => {
    const script = await docRecipe('workflows', 'Claude Code', 'sh');
    const calls = await argumentsOf(script, 'claude', { PURSER_URL: productUrl, AGENT_DID: payer.did, AGENT_API_KEY: payer.key });
    expect(calls).toHaveLength(1);
    const [subcommand, verb, ...rest] = calls[0]!;
    expect([subcommand, verb]).toEqual(['mcp', 'add']);
    const options: Array<[string, string]> = [];
    const positional: string[] = [];
    for (let index = 0; index < rest.length; index++) {
      const word = rest[index]!;
      if (word.startsWith('--')) options.push([word, rest[++index]!]);
      else positional.push(word);
    }
    expect(options.filter(([option]) => option === '--transport')).toEqual([['--transport', 'http']]);
    const [name, url] = positional;
    expect(name).toBe('purser');
    const headers = Object.fromEntries(options.filter(([option]) => option === '--header').map(([, value]) => splitHeader(value)));
    await connectListAndReadBalance(url!, headers);
  });

  it('Claude Desktop: the mcp-remote bridge passes the URL and the two headers over Streamable HTTP', async () => {
    const config = JSON.parse(fillIn(await docRecipe('workflows', 'Claude Desktop', 'json'), forPayer())) as {
      mcpServers: { purser: { command: string; args: string[]; env: Record<string, string> } };
    };
    const server = config.mcpServers.purser;
    expect(server.command).toBe('npx');
    // npx's own options, then the package, then mcp-remote's arguments.
    const packageAt = server.args.findIndex((arg) => !arg.startsWith('-'));
    expect(server.args[packageAt]).toBe('mcp-remote');
    const bridged = server.args.slice(packageAt + 1);
    // As mcp-remote reads them: `--header Name:value` pairs with ${VAR} from the environment
    // Claude Desktop gives it, the URL first among the rest, `--transport http-only`.
    const processEnv = fillIn(JSON.stringify(server.env), { [EXAMPLE_KEY]: payer.key });
    const environment = JSON.parse(processEnv) as Record<string, string>;
    const headers: Record<string, string> = {};
    const remaining: string[] = [];
    for (let index = 0; index < bridged.length; index++) {
      if (bridged[index] !== '--header') {
        remaining.push(bridged[index]!);
        continue;
      }
      const [header, value] = splitHeader(bridged[++index]!);
      headers[header] = value.replace(/\$\{([^}]+)}/g, (_, variable: string) => {
        const resolved = environment[variable];
        if (resolved === undefined) throw new Error(`\${${variable}} is not in the server's env`);
        return resolved;
      });
    }
    expect(remaining.slice(1)).toEqual(['--transport', 'http-only']);
    await connectListAndReadBalance(remaining[0]!, headers);
  });

  it('Cursor: mcpServers with url and headers, the key from ${env:...}', async () => {
    const config = JSON.parse(fillIn(await docRecipe('workflows', 'Cursor', 'json'), forPayer())) as {
      mcpServers: { purser: { url: string; headers: Record<string, string> } };
    };
    const { url, headers } = config.mcpServers.purser;
    const environment: Record<string, string> = { AGENT_API_KEY: payer.key };
    const resolved = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, value.replace(/\$\{env:([^}]+)}/g, (_, variable: string) => environment[variable] ?? '')]),
    );
    await connectListAndReadBalance(url, resolved);
  });

  it('VS Code: servers with type http, the key from a password input', async () => {
    const config = JSON.parse(fillIn(await docRecipe('workflows', 'VS Code', 'json'), forPayer())) as {
      inputs: Array<{ type: string; id: string; password?: boolean }>;
      servers: { purser: { type: string; url: string; headers: Record<string, string> } };
    };
    const server = config.servers.purser;
    expect(server.type).toBe('http');
    // What the reader types when VS Code asks, for each input the headers refer to.
    const answers = new Map(config.inputs.map((input) => [input.id, input]));
    const resolved = Object.fromEntries(
      Object.entries(server.headers).map(([name, value]) => [
        name,
        value.replace(/\$\{input:([^}]+)}/g, (_, id: string) => {
          expect(answers.get(id)).toMatchObject({ type: 'promptString', password: true });
          return payer.key;
        }),
      ]),
    );
    await connectListAndReadBalance(server.url, resolved);
  });

  it('the TypeScript SDK client of the MCP API section runs and prints the tools and the balance', async () => {
    const source = await docRecipe('mcp-api', 'Connect with the TypeScript SDK', 'ts');
    // Inside the repository, so the sample resolves the installed SDK as a reader's project would.
    const dir = join(REPO_ROOT, 'node_modules', '.cache', 'purser-doc-recipes');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `mcp-client-${randomUUID()}.mts`);
    writeFileSync(file, source);
    try {
      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', file], {
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PURSER_URL: productUrl, AGENT_DID: payer.did, AGENT_API_KEY: payer.key },
        });
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('close', (exitCode) => resolve({ code: exitCode, output: text }));
      });
      expect(code, output).toBe(0);
      for (const tool of CORE_TOOLS) expect(output).toContain(tool);
      expect(output).toContain(`"did": "${payer.did}"`);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

interface MakeModule {
  module: string;
  version: number;
  parameters: { handleErrors: boolean };
  mapper: {
    url: string;
    method: string;
    headers: Array<{ name: string; value: string }>;
    qs: Array<{ name: string; value: string }>;
    bodyType?: string;
    contentType?: string;
    data?: string;
    parseResponse: boolean;
    timeout: number;
  };
}

/** A Make module of the docs with the payer's URL, DID and key, and `{{1.field}}` mapped from `bundle`. */
async function makeModule(heading: string, bundle: Record<string, string>): Promise<MakeModule> {
  // Make maps inside the strings it evaluates (URL, header values, body); the mapped values here
  // need no JSON escaping, so they can be filled into the module's text.
  const mapped = Object.fromEntries(Object.entries(bundle).map(([field, value]) => [`{{1.${field}}}`, value]));
  const text = fillIn(await docRecipe('workflows', heading, 'json'), { ...forPayer(), [EXAMPLE_KEY]: payer.key, ...mapped });
  expect(text).not.toContain('{{');
  const module = JSON.parse(text) as MakeModule;
  expect(module).toMatchObject({ module: 'http:ActionSendData', version: 3, parameters: { handleErrors: true } });
  expect(module.mapper.parseResponse).toBe(true);
  return module;
}

/** Sends the request the module describes, as Make's HTTP module does, and parses the JSON answer. */
async function sendAsMake(module: MakeModule): Promise<{ status: number; headers: Headers; data: Record<string, unknown> }> {
  const { mapper } = module;
  const url = new URL(mapper.url);
  for (const { name, value } of mapper.qs) url.searchParams.append(name, value);
  const headers = new Headers(mapper.headers.map(({ name, value }) => [name, value] as [string, string]));
  const raw = mapper.bodyType === 'raw';
  if (raw) headers.set('content-type', mapper.contentType!);
  const response = await fetch(url, {
    method: mapper.method.toUpperCase(),
    headers,
    ...(raw ? { body: mapper.data } : {}),
    signal: AbortSignal.timeout(mapper.timeout * 1000),
  });
  return { status: response.status, headers: response.headers, data: (await response.json()) as Record<string, unknown> };
}

describe("the Make recipes (the HTTP app's Make a request module)", () => {
  it('reads the balance', async () => {
    const module = await makeModule('Make: read the balance', {});
    expect(module.mapper.method).toBe('get');
    const { status, data } = await sendAsMake(module);
    expect(status).toBe(200);
    expect(data.did).toBe(payer.did);
    expect(atomicDollars((data.balances as { USDC: { ledger_exact: string } }).USDC.ledger_exact)).toBe(await agentLedgerUsdc(env.testApp.app, payer));
  });

  it('pays an invoice once: the amount leaves the payer and reaches the payee, and a repeat is a replay', async () => {
    const invoiceId = `INV-${randomUUID()}`;
    const module = await makeModule('Make: pay an invoice', { invoice_id: invoiceId, amount: '0.25', pay_to: payee.walletAddress });
    expect(module.mapper).toMatchObject({ method: 'post', bodyType: 'raw', contentType: 'application/json' });
    const [payerBefore, payeeBefore] = [await agentLedgerUsdc(env.testApp.app, payer), await agentLedgerUsdc(env.testApp.app, payee)];

    const first = await env.runWorker(() => sendAsMake(module));
    expect(first.status, JSON.stringify(first.data)).toBe(200);
    expect(first.data).toMatchObject({ status: 'settled', amount_exact: '0.25', currency: 'USDC', to_address: payee.walletAddress });
    expect(payerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(250_000n);
    expect((await agentLedgerUsdc(env.testApp.app, payee)) - payeeBefore).toBe(250_000n);

    // Make's Break handler runs the module again with the same headers and body.
    const again = await env.runWorker(() => sendAsMake(module));
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data.intent_id).toBe(first.data.intent_id);
    expect(payerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(250_000n);
    expect((await agentLedgerUsdc(env.testApp.app, payee)) - payeeBefore).toBe(250_000n);
  });

  it('buys a paid URL within the price cap: the seller gets exactly the price on chain', async () => {
    const module = await makeModule('Make: buy a paid URL', { id: randomUUID(), url: `${productUrl}/sandbox/paid/quote` });
    const seller = chain.sandboxSeller as Address;
    const [sellerBefore, payerBefore] = [await chain.usdcBalanceOf(seller), await agentLedgerUsdc(env.testApp.app, payer)];

    const { status, data } = await env.runWorker(() => sendAsMake(module));
    expect(status, JSON.stringify(data)).toBe(200);
    // Paid on chain; the workflow records it as settled right after the answer.
    expect(data).toMatchObject({ status: 200, payment: { status: 'processing', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
    expect(JSON.parse(data.body as string)).toHaveProperty('quote');
    // The quote costs $0.005.
    expect((await chain.usdcBalanceOf(seller)) - sellerBefore).toBe(5_000n);
    expect(payerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(5_000n);
  });

  it('leaves the ledger balanced', async () => {
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
