/**
 * FAKE: an OpenAI-compatible model provider for the assistant's tests, since no real model can
 * run offline. A node:http server on 127.0.0.1 answering POST /v1/chat/completions with
 * streamed chat.completion.chunk events, as scripted by the test: text in chunks, a tool call,
 * an error status, a stream cut short, or no answer at all. It records every request (body
 * and Authorization header) so a test can read the prompt, the tools and the history it got.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeReply =
  /**
   * Text in these chunks; with `holdAfterFirst`, the rest waits until that promise settles.
   * `withoutRole` leaves out the opening chunk naming the role, as some compatible servers do.
   */
  | { kind: 'text'; chunks: string[]; holdAfterFirst?: Promise<void>; withoutRole?: boolean }
  /** One tool call, optionally after some text. */
  | { kind: 'tool_call'; name: string; arguments: string; text?: string }
  /** These chunks, then the connection is cut without a finish or [DONE]. */
  | { kind: 'cut_after'; chunks: string[] }
  | { kind: 'status'; status: number; message: string }
  /** Never answers; the request stays open until the client gives up. */
  | { kind: 'silence' };

export interface RecordedRequest {
  authorization: string | undefined;
  /** Settles when the caller's connection for this request closes (it gave up, or the answer ended). */
  closed: Promise<void>;
  body: {
    model: string;
    stream?: boolean;
    messages: Array<{ role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }>;
    tools?: Array<{ type: string; function: { name: string; parameters: unknown } }>;
  };
}

export interface FakeProvider {
  /** The OpenAI base URL, e.g. http://127.0.0.1:PORT/v1. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replies for the next requests, in order; a request with none left gets a 500. */
  script(...replies: FakeReply[]): void;
  /** Drops replies a previous test scripted but did not use. */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      response.destroy(error as Error);
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `FAKE: no route ${request.url}` } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
    const closed = new Promise<void>((resolve) => response.once('close', () => resolve()));
    requests.push({ authorization: request.headers.authorization, closed, body });
    const reply = queue.shift();
    if (!reply) {
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'FAKE: no scripted reply left' } }));
      return;
    }
    if (reply.kind === 'status') {
      response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: reply.message, type: 'fake_error' } }));
      return;
    }
    if (reply.kind === 'silence') return;

    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const id = `chatcmpl-fake-${requests.length}`;
    const send = (delta: object, finishReason: string | null = null) =>
      response.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`);

    if (reply.kind !== 'text' || !reply.withoutRole) send({ role: 'assistant', content: '' });
    if (reply.kind === 'text') {
      const [first, ...rest] = reply.chunks;
      if (first !== undefined) send({ content: first });
      if (reply.holdAfterFirst) await reply.holdAfterFirst;
      for (const text of rest) send({ content: text });
      send({}, 'stop');
    } else if (reply.kind === 'tool_call') {
      if (reply.text) send({ content: reply.text });
      send({ tool_calls: [{ index: 0, id: `call_${requests.length}`, type: 'function', function: { name: reply.name, arguments: '' } }] });
      // Arguments arrive in pieces, as real providers send them.
      const half = Math.ceil(reply.arguments.length / 2);
      for (const piece of [reply.arguments.slice(0, half), reply.arguments.slice(half)]) {
        send({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
      }
      send({}, 'tool_calls');
    } else {
      for (const text of reply.chunks) send({ content: text });
      response.write('', () => response.destroy());
      return;
    }
    response.end('data: [DONE]\n\n');
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(...replies) {
      queue.push(...replies);
    },
    reset() {
      queue.length = 0;
    },
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}
