/**
 * Local HTTP servers on 127.0.0.1 for the SDK's product tests: a webhook receiver that keeps
 * what it is sent, a proxy in front of the product that can answer a call with an error
 * after it has forwarded it (a gateway that lost the answer), and a server answering fixed
 * bytes (a binary resource for x402 fetch).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as received. */
  body: string;
}

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startWebhookReceiver(): Promise<LocalServer & { received: ReceivedWebhook[] }> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      received.push({ headers: request.headers, body: body.toString('utf8') });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  return { ...(await listen(server)), received };
}

export interface ProxiedCall {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** What the product answered. */
  upstreamStatus: number;
  upstreamReplayed: boolean;
  /** What the proxy answered the client. */
  answeredStatus: number;
}

/**
 * Forwards every call to `target`. A call that `failAfterForwarding` picks is forwarded, its
 * answer read in full and dropped, and the client is answered 503 instead.
 */
export async function startFlakyProxy(target: string, failAfterForwarding: (method: string, path: string, seen: ProxiedCall[]) => boolean): Promise<LocalServer & { calls: ProxiedCall[] }> {
  const calls: ProxiedCall[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined && !['host', 'connection', 'content-length'].includes(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const method = request.method ?? 'GET';
      const path = request.url ?? '/';
      const fail = failAfterForwarding(method, path, calls);
      const upstream = await fetch(`${target}${path}`, { method, headers, ...(body.length > 0 ? { body } : {}) });
      const text = await upstream.text();
      calls.push({
        method,
        path,
        idempotencyKey: request.headers['idempotency-key'] as string | undefined,
        upstreamStatus: upstream.status,
        upstreamReplayed: upstream.headers.get('idempotent-replayed') === 'true',
        answeredStatus: fail ? 503 : upstream.status,
      });
      if (fail) {
        response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'The gateway lost the answer' } }));
        return;
      }
      const answerHeaders: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) answerHeaders[name] = value;
      });
      response.writeHead(upstream.status, answerHeaders).end(text);
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  return { ...(await listen(server)), calls };
}

/** Answers every request with `bytes` as `contentType`. */
export async function startBytesServer(bytes: Uint8Array, contentType: string): Promise<LocalServer> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': contentType, 'content-length': String(bytes.length) }).end(Buffer.from(bytes));
  });
  return listen(server);
}
