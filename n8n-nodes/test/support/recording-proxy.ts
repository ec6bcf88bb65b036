/**
 * A pass-through HTTP proxy on 127.0.0.1 between n8n and Purser that writes down each request
 * n8n sent and how Purser answered, so a test can see retries and idempotency keys on the wire.
 * It forwards bytes unchanged in both directions.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedExchange {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  status: number;
  replayed: boolean;
}

export interface RecordingProxy {
  url: string;
  exchanges: RecordedExchange[];
  close(): Promise<void>;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const exchanges: RecordedExchange[] = [];
  const server = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        exchanges.push({
          method: incoming.method ?? '',
          path: (incoming.url ?? '').split('?')[0]!,
          idempotencyKey: header(incoming.headers, 'idempotency-key'),
          status: answer.statusCode ?? 0,
          replayed: header(answer.headers, 'idempotent-replayed') === 'true',
        });
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`proxy: ${error.message}`);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
