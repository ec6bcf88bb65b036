/**
 * A JSON-RPC relay in front of a real node (the sandbox's anvil) for chain suites: it logs every
 * HTTP call it passes on (batches split into their calls) and answers anything but POST with 405.
 * WebSocket upgrades (the server's head feed, head-feed.ts) go through to the node as raw TCP, so
 * the feed is the node's own, while `webSockets` is on; otherwise they are refused, as by a node
 * that speaks HTTP only. `cutWebSockets` ends the connections passed through so far.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface LoggingRpcRelay {
  url: string;
  /** The HTTP calls passed on, in order. */
  calls: Array<{ method: string; params: unknown[] }>;
  /** Pass WebSocket upgrades through (true) or refuse them (false). */
  webSockets: boolean;
  cutWebSockets(): void;
  /** WebSocket connections passed through and still open. */
  openWebSockets(): number;
  close(): Promise<void>;
}

export async function startLoggingRpcRelay(target: string, { webSockets = true }: { webSockets?: boolean } = {}): Promise<LoggingRpcRelay> {
  const upstream = new URL(target);
  const calls: LoggingRpcRelay['calls'] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    if (request.method !== 'POST') return response.writeHead(405, { allow: 'POST' }).end();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      for (const call of [JSON.parse(body) as { method: string; params?: unknown[] }].flat()) calls.push({ method: call.method, params: call.params ?? [] });
      void fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (answer) => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()))
        .catch(() => response.destroy());
    });
  });
  const relay: LoggingRpcRelay = {
    url: '',
    calls,
    webSockets,
    cutWebSockets: () => sockets.forEach((socket) => socket.destroy()),
    openWebSockets: () => [...sockets].filter((socket) => !socket.destroyed).length,
    close: () =>
      new Promise((resolve) => {
        relay.cutWebSockets();
        server.close(() => resolve());
      }),
  };
  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    if (!relay.webSockets) return socket.destroy();
    const node = connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${request.method} ${request.url} HTTP/1.1`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      node.write(`${lines.join('\r\n')}\r\n\r\n`);
      node.write(head);
      socket.pipe(node).pipe(socket);
    });
    const cut = () => {
      socket.destroy();
      node.destroy();
    };
    socket.on('error', cut).on('close', cut);
    node.on('error', cut).on('close', cut);
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return relay;
}
