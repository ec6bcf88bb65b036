// A stand-in for the assistant endpoint that sends server-sent events when the test says so,
// for the specs of the widget's own reading of a stream while it arrives (Thinking..., then the
// reply growing in one bubble). A fulfilled route cannot show that: it answers all at once.
// The page's request is sent here with `route.continue({ url })`, so the browser streams the
// answer over a real connection and this server sees the headers and body the widget sent.
// The real endpoint is exercised by the last test of assistant.spec.ts.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldRequest {
  headers: IncomingHttpHeaders;
  method: string;
  body: string;
  /** Writes these lines, each followed by a line ending. */
  write: (...lines: string[]) => void;
  end: () => void;
}

export interface ScriptedSseServer {
  url: string;
  /** The next request the server receives, its response open and waiting for lines. */
  nextRequest: () => Promise<HeldRequest>;
  close: () => Promise<void>;
}

export async function startScriptedSseServer(): Promise<ScriptedSseServer> {
  const arrived: HeldRequest[] = [];
  const waiting: Array<(request: HeldRequest) => void> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (piece: string) => (body += piece));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.flushHeaders();
      const held: HeldRequest = {
        headers: request.headers,
        method: request.method ?? '',
        body,
        write: (...lines) => response.write(lines.map((line) => `${line}\n`).join('')),
        end: () => response.end(),
      };
      const taker = waiting.shift();
      if (taker) taker(held);
      else arrived.push(held);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/functions/v1/ai-assistant`,
    nextRequest: () => {
      const first = arrived.shift();
      return first ? Promise.resolve(first) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
