/** An HTTP endpoint on 127.0.0.1 that keeps every JSON body posted to it, for a workflow to report to. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RequestSink {
  url: string;
  bodies: unknown[];
  /** Resolves with the first body `match` accepts, polling until `timeoutMs`. */
  waitFor<T>(match: (body: T) => boolean, timeoutMs: number): Promise<T>;
  close(): Promise<void>;
}

export async function startRequestSink(): Promise<RequestSink> {
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/events`,
    bodies,
    async waitFor<T>(match: (body: T) => boolean, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (bodies as T[]).find(match);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`nothing matching arrived in ${timeoutMs} ms; got ${JSON.stringify(bodies).slice(0, 2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
