/**
 * A JSON-RPC node behind the head, for chain suites: a small proxy in front of a real node (the
 * sandbox's anvil) that answers, on demand, as a node stuck at one block would, while the chain
 * behind it runs on. What lags is chosen per kind of read, as a load-balanced RPC mixes nodes:
 *
 * - `head`: eth_blockNumber and eth_getBlockByNumber name the stuck block as the latest, and have
 *   no later block.
 * - `state`: eth_call, balances, code, storage and nonces read at `latest` are read at the stuck
 *   block; an explicit later block is refused ("header not found", as geth answers); a
 *   transaction or receipt mined after it is unknown (null).
 * - `logs`: eth_getLogs stops at the stuck block without saying so (as older nodes truncate a
 *   range), and a later block asked by its hash is refused ("unknown block").
 *
 * Everything else (sending transactions, anvil's test methods) passes through, so the chain keeps
 * moving. Batches (JSON arrays) are answered item by item.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LaggingKind = 'head' | 'state' | 'logs';

export interface LaggingRpc {
  url: string;
  /**
   * From now on answers as a node stuck at block `at` (the real head when absent) for the kinds
   * named (all three when absent); resolves with the block it is stuck at.
   */
  lag(kinds?: readonly LaggingKind[], at?: bigint): Promise<bigint>;
  /** Answers as the real node again. */
  catchUp(): void;
  /** How many requests were answered from the lagging view since lag() (the product did ask). */
  laggingAnswers(): number;
  close(): Promise<void>;
}

interface RpcRequest {
  jsonrpc: '2.0';
  id: number | string | null;
  method: string;
  params?: unknown[];
}
type RpcResponse = { jsonrpc: '2.0'; id: RpcRequest['id'] } & ({ result: unknown } | { error: { code: number; message: string } });

const TAGS = new Set(['latest', 'pending', 'safe', 'finalized']);
/** State reads and where their block parameter is. */
const STATE_READS: Record<string, number> = { eth_call: 1, eth_getBalance: 1, eth_getCode: 1, eth_getStorageAt: 2, eth_getTransactionCount: 1 };

export async function startLaggingRpc(target: string): Promise<LaggingRpc> {
  let stuck: { at: bigint; kinds: Set<LaggingKind> } | null = null;
  let answered = 0;

  async function upstream(request: RpcRequest): Promise<RpcResponse> {
    const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
    return (await response.json()) as RpcResponse;
  }
  const result = (request: RpcRequest, value: unknown): RpcResponse => ({ jsonrpc: '2.0', id: request.id, result: value });
  const refused = (request: RpcRequest, message: string): RpcResponse => ({ jsonrpc: '2.0', id: request.id, error: { code: -32000, message } });
  const hex = (value: bigint) => `0x${value.toString(16)}`;
  /** A block parameter as the stuck node reads it: a tag is the stuck block; a later number is `null` (it has no such block). */
  const blockParameter = (value: unknown, at: bigint): unknown => {
    if (value === undefined || (typeof value === 'string' && TAGS.has(value))) return hex(at);
    if (typeof value === 'string' && value.startsWith('0x') && BigInt(value) > at) return null;
    return value;
  };
  /** The block a hash names, when the real node has it. */
  const blockNumberOf = async (blockHash: string): Promise<bigint | null> => {
    const block = await upstream({ jsonrpc: '2.0', id: 0, method: 'eth_getBlockByHash', params: [blockHash, false] });
    return 'result' in block && block.result ? BigInt((block.result as { number: string }).number) : null;
  };

  async function answer(request: RpcRequest): Promise<RpcResponse> {
    const lagging = stuck;
    const params = request.params ?? [];
    if (lagging?.kinds.has('head')) {
      if (request.method === 'eth_blockNumber') return counted(result(request, hex(lagging.at)));
      if (request.method === 'eth_getBlockByNumber') {
        const block = blockParameter(params[0], lagging.at);
        if (block === null) return counted(result(request, null));
        return counted(await upstream({ ...request, params: [block, ...params.slice(1)] }));
      }
      if (request.method === 'eth_getBlockByHash') {
        const number = await blockNumberOf(params[0] as string);
        if (number !== null && number > lagging.at) return counted(result(request, null));
      }
    }
    if (lagging?.kinds.has('state')) {
      const position = STATE_READS[request.method];
      // A wallet's next nonce is asked of the pending block: a lagging node still relays sends.
      if (position !== undefined && !(request.method === 'eth_getTransactionCount' && params[position] === 'pending')) {
        const block = blockParameter(params[position], lagging.at);
        if (block === null) return counted(refused(request, 'header not found'));
        const rewritten = [...params];
        rewritten[position] = block;
        return counted(await upstream({ ...request, params: rewritten }));
      }
      if (request.method === 'eth_getTransactionReceipt' || request.method === 'eth_getTransactionByHash') {
        const found = await upstream(request);
        const mined = 'result' in found && found.result ? (found.result as { blockNumber: string | null }).blockNumber : null;
        return mined !== null && BigInt(mined) > lagging.at ? counted(result(request, null)) : found;
      }
    }
    if (lagging?.kinds.has('logs') && request.method === 'eth_getLogs') {
      const filter = { ...(params[0] as Record<string, unknown>) };
      if (typeof filter.blockHash === 'string') {
        const number = await blockNumberOf(filter.blockHash);
        if (number === null || number > lagging.at) return counted(refused(request, 'unknown block'));
      } else {
        const from = blockParameter(filter.fromBlock ?? 'latest', lagging.at);
        if (from === null) return counted(result(request, []));
        filter.fromBlock = from;
        filter.toBlock = blockParameter(filter.toBlock ?? 'latest', lagging.at) ?? hex(lagging.at);
      }
      return counted(await upstream({ ...request, params: [filter] }));
    }
    return upstream(request);
  }
  function counted(response: RpcResponse): RpcResponse {
    answered++;
    return response;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcRequest | RpcRequest[];
    const answers = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answers));
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async lag(kinds = ['head', 'state', 'logs'], at) {
      let block = at;
      if (block === undefined) {
        const head = await upstream({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] });
        block = BigInt((head as { result: string }).result);
      }
      stuck = { at: block, kinds: new Set(kinds) };
      answered = 0;
      return block;
    },
    catchUp() {
      stuck = null;
    },
    laggingAnswers: () => answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
